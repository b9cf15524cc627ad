package inspect

import (
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/luahost/luahost/luabind"
	"github.com/luahost/luahost/runtime"
)

// TestPollingDoesNotSlowTheWorld is the inspector's promise under load:
// a world of 2,000 movers and one entity whose self holds a million
// values runs as fast as it can, first with no client, then with 16
// clients polling the entity listing and the hoarding entity without
// pause. Every read's work on the world is bounded by what its answer
// holds, identical reads in a frame share one answer, the world serves
// requests for a slice of each frame, and each client address is
// rate-limited, so the frame rate stays above a quarter of the rate
// without clients, a bound loose enough for a loaded 2-core machine (the
// clients share its cores; idle, it keeps 65-90 %). Reading the whole
// self of the hoarder took most of a second a request, and the frame rate
// fell to a few frames a second.
func TestPollingDoesNotSlowTheWorld(t *testing.T) {
	if testing.Short() {
		t.Skip("a load test")
	}
	rt := runtime.New(runtime.Options{Seed: 1, OnError: func(error) {}})
	host, err := luabind.New(rt, luabind.Options{Dir: "testdata/scripts", Budget: -1, Stdout: io.Discard, Log: io.Discard})
	require.NoError(t, err)
	t.Cleanup(func() { _ = host.Close() })
	for range 2000 {
		e := rt.Spawn()
		_, err := host.Attach(e, "mover", nil)
		require.NoError(t, err)
		require.NoError(t, rt.Activate(e))
	}
	hoarder := rt.Spawn()
	_, err = host.Attach(hoarder, "hoard", nil)
	require.NoError(t, err)
	require.NoError(t, rt.Activate(hoarder))
	in, err := New(host, Options{})
	require.NoError(t, err)
	srv := httptest.NewServer(in)
	t.Cleanup(srv.Close)
	t.Cleanup(in.Close)

	// fps runs frames for d and returns how many ran per second.
	fps := func(d time.Duration) float64 {
		n := 0
		start := time.Now()
		for time.Since(start) < d {
			require.NoError(t, rt.Step(1.0/60))
			n++
		}
		return float64(n) / time.Since(start).Seconds()
	}
	fps(200 * time.Millisecond) // warm up
	alone := fps(time.Second)

	stop := make(chan struct{})
	var wg sync.WaitGroup
	var mu sync.Mutex
	status := map[int]int{}
	paths := []string{"/api/entities", "/api/entities/" + url.PathEscape(hoarder.String()), "/api/world"}
	for c := range 16 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; ; i++ {
				select {
				case <-stop:
					return
				default:
				}
				resp, err := http.Get(srv.URL + paths[(c+i)%len(paths)])
				if err != nil {
					return
				}
				_, _ = io.Copy(io.Discard, resp.Body)
				resp.Body.Close()
				mu.Lock()
				status[resp.StatusCode]++
				mu.Unlock()
				// A page polls; one told to retry later backs off.
				pause := 10 * time.Millisecond
				if resp.StatusCode == http.StatusTooManyRequests {
					pause = 100 * time.Millisecond
				}
				time.Sleep(pause)
			}
		}()
	}
	polled := fps(time.Second)
	close(stop)
	// Requests still in flight are answered between frames: the world
	// steps on until every client has stopped.
	clientsDone := make(chan struct{})
	go func() {
		wg.Wait()
		close(clientsDone)
	}()
	for waiting := true; waiting; {
		select {
		case <-clientsDone:
			waiting = false
		default:
			require.NoError(t, rt.Step(1.0/60))
		}
	}
	t.Logf("%.0f frames a second alone, %.0f with 16 clients polling; answers by status: %v", alone, polled, status)
	assert.Positive(t, status[http.StatusOK], "the clients were answered")
	// Loose: the clients and whatever else the machine runs share its
	// cores. Reading whole selves made it a few frames a second.
	assert.Greater(t, polled, alone/4, "polling clients slow the world by a bounded share")
}

// TestClientRateLimit: one client address gets a burst of clientBurst
// requests, then clientRate a second; past that it is answered 429 with
// Retry-After, and other addresses are not affected.
func TestClientRateLimit(t *testing.T) {
	var c clients
	now := time.Now()
	req := func(addr string) *http.Request {
		r := httptest.NewRequest("GET", "/api/world", nil)
		r.RemoteAddr = addr
		return r
	}
	for range clientBurst {
		require.True(t, c.allow(req("10.0.0.1:1000"), now))
	}
	assert.False(t, c.allow(req("10.0.0.1:1001"), now), "the port does not make another client")
	assert.True(t, c.allow(req("10.0.0.2:1000"), now), "another address has its own bucket")
	assert.True(t, c.allow(req("10.0.0.1:1000"), now.Add(time.Second/clientRate)), "a token comes back")

	w := newWorld(t, Options{}, 0)
	var limited *http.Response
	for range 2 * clientBurst {
		resp, err := http.Get(w.srv.URL + "/api/world")
		require.NoError(t, err)
		resp.Body.Close()
		if resp.StatusCode == http.StatusTooManyRequests {
			limited = resp
			break
		}
	}
	require.NotNil(t, limited, "a client past its rate is refused")
	assert.Equal(t, "1", limited.Header.Get("Retry-After"))
}

// TestServerTimeouts: the server of an inspector closes idle keep-alive
// connections and bounds a slow header.
func TestServerTimeouts(t *testing.T) {
	srv := NewServer(newWorld(t, Options{}, 0).in)
	assert.Equal(t, IdleTimeout, srv.IdleTimeout)
	assert.Equal(t, ReadHeaderTimeout, srv.ReadHeaderTimeout)
	assert.NotNil(t, srv.Handler)
}
