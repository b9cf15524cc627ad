package inspect

import (
	"bufio"
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// sse is one server-sent event as a client reads it.
type sse struct {
	kind string
	data map[string]any
}

// events reads the server-sent events of resp, on a goroutine of its
// own, into a channel closed when the stream ends.
func events(resp *http.Response) <-chan sse {
	got := make(chan sse, 1000)
	go func() {
		defer close(got)
		sc := bufio.NewScanner(resp.Body)
		var e sse
		for sc.Scan() {
			line := sc.Text()
			switch {
			case strings.HasPrefix(line, "event: "):
				e.kind = strings.TrimPrefix(line, "event: ")
			case strings.HasPrefix(line, "data: "):
				_ = json.Unmarshal([]byte(strings.TrimPrefix(line, "data: ")), &e.data)
			case line == "" && e.kind != "":
				got <- e
				e = sse{}
			}
		}
	}()
	return got
}

// until reads events until want returns true for one, and returns those
// read; it fails after a few seconds.
func until(t *testing.T, got <-chan sse, want func(sse) bool) []sse {
	t.Helper()
	var seen []sse
	timeout := time.After(10 * time.Second)
	for {
		select {
		case e, ok := <-got:
			require.True(t, ok, "the stream ended; events so far: %v", seen)
			seen = append(seen, e)
			if want(e) {
				return seen
			}
		case <-timeout:
			t.Fatalf("no such event; got %v", seen)
		}
	}
}

// TestStream reads the event stream of a running world: it starts with
// the error that happened before it was opened, then brings frame
// summaries with each script's time, hot reloads applied and refused, a
// pause and a step.
func TestStream(t *testing.T) {
	w := newWorld(t, Options{}, 2*time.Millisecond)
	resp, err := http.Get(w.srv.URL + "/api/stream")
	require.NoError(t, err)
	defer resp.Body.Close()
	require.Equal(t, http.StatusOK, resp.StatusCode)
	assert.Equal(t, "text/event-stream", resp.Header.Get("Content-Type"))

	got := events(resp)
	seen := until(t, got, func(e sse) bool { return e.kind == "frame" })
	require.Equal(t, "error", seen[0].kind)
	assert.Equal(t, "faulty", seen[0].data["script"])
	assert.Equal(t, w.b.String(), seen[0].data["entity"])
	assert.Equal(t, 6.0, seen[0].data["line"])
	frame := seen[len(seen)-1].data
	for _, k := range []string{"frame", "time", "entities", "instances", "paused", "frameMs"} {
		assert.Contains(t, frame, k)
	}
	assert.Contains(t, frame["scriptMs"], "mover")

	src, err := os.ReadFile("testdata/scripts/reader.lua")
	require.NoError(t, err)
	w.onWorld(func() {
		assert.NoError(t, w.host.Reload("reader", src))
		assert.Error(t, w.host.Reload("reader", []byte("return {")))
	})
	seen = until(t, got, func(e sse) bool { return e.kind == "reload" && e.data["error"] != nil })
	var reloads []map[string]any
	for _, e := range seen {
		if e.kind == "reload" {
			reloads = append(reloads, e.data)
		}
		assert.NotEqual(t, "error", e.kind, "a refused reload is a reload event, not an error too: %v", e.data)
	}
	require.Len(t, reloads, 2)
	assert.Equal(t, "reader", reloads[0]["script"])
	assert.Equal(t, "testdata/scripts/reader.lua", reloads[0]["file"])
	assert.Equal(t, 1.0, reloads[0]["instances"])
	assert.Nil(t, reloads[0]["error"])
	assert.Contains(t, reloads[1]["error"], "testdata/scripts/reader.lua:1:")

	w.post("/api/pause", "")
	until(t, got, func(e sse) bool { return e.kind == "frame" && e.data["paused"] == true })
	w.post("/api/eval", `{"entity": "`+w.a.String()+`", "code": "ctx.entity:kill()"}`)
	w.post("/api/step", "")
	until(t, got, func(e sse) bool { return e.kind == "frame" && e.data["entities"] == 2.0 })
}

// TestStreamLimit: past maxStreams open streams, a new one is refused
// with 503 and a message saying why; once one closes, a new one opens.
func TestStreamLimit(t *testing.T) {
	w := newWorld(t, Options{}, 2*time.Millisecond)
	open := func() (*http.Response, error) { return http.Get(w.srv.URL + "/api/stream") }
	var streams []*http.Response
	t.Cleanup(func() {
		for _, r := range streams {
			r.Body.Close()
		}
	})
	for range maxStreams {
		resp, err := open()
		require.NoError(t, err)
		require.Equal(t, http.StatusOK, resp.StatusCode)
		streams = append(streams, resp)
	}

	resp, err := open()
	require.NoError(t, err)
	body, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	assert.Equal(t, http.StatusServiceUnavailable, resp.StatusCode)
	assert.Contains(t, string(body), "64 event streams are open already")

	streams[0].Body.Close()
	streams = streams[1:]
	require.Eventually(t, func() bool {
		resp, err := open()
		if err != nil {
			return false
		}
		if resp.StatusCode != http.StatusOK {
			resp.Body.Close()
			return false
		}
		streams = append(streams, resp)
		return true
	}, 5*time.Second, 10*time.Millisecond, "a stream closed, a new one opens")
}

// smallBuffers is a listener whose connections have small send buffers,
// so that a client that does not read stalls the server's writes soon.
type smallBuffers struct{ net.Listener }

func (l smallBuffers) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if tc, ok := c.(*net.TCPConn); ok {
		_ = tc.SetWriteBuffer(4096)
	}
	return c, err
}

// TestStreamStalledClient: a client that opens a stream and stops
// reading is dropped once a write to it has waited streamWriteTimeout,
// freeing its place among maxStreams, while the world runs on.
func TestStreamStalledClient(t *testing.T) {
	old := streamWriteTimeout
	streamWriteTimeout = 100 * time.Millisecond
	t.Cleanup(func() { streamWriteTimeout = old })
	w := newWorld(t, Options{}, 2*time.Millisecond)
	srv := httptest.NewUnstartedServer(w.in)
	srv.Listener = smallBuffers{srv.Listener}
	srv.Start()
	t.Cleanup(srv.Close)
	c, err := net.Dial("tcp", srv.Listener.Addr().String())
	require.NoError(t, err)
	t.Cleanup(func() { c.Close() })
	require.NoError(t, c.(*net.TCPConn).SetReadBuffer(2048))
	_, err = fmt.Fprintf(c, "GET /api/stream HTTP/1.1\r\nHost: %s\r\n\r\n", srv.Listener.Addr())
	require.NoError(t, err)
	require.Eventually(t, func() bool { return w.in.hub.active.Load() == 1 }, 5*time.Second, 5*time.Millisecond, "the stream opened")
	// The client reads nothing: the server's writes stall, then time out.
	require.Eventually(t, func() bool { return w.in.hub.active.Load() == 0 }, 20*time.Second, 10*time.Millisecond, "the stalled stream was dropped")
	assert.Positive(t, w.frame(), "the world ran on")
}
