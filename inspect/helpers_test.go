package inspect

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/luahost/luahost/internal/syncbuf"
	"github.com/luahost/luahost/luabind"
	"github.com/luahost/luahost/runtime"
)

// world is a running world with an inspector served by an httptest
// server. Its loop goroutine drives the world: a frame every tick, and
// the inspector's requests between frames as they come.
type world struct {
	t    *testing.T
	rt   *runtime.Runtime
	host *luabind.Host
	in   *Inspector
	srv  *httptest.Server
	// ids are the scene's entities: a (mover, tag red), b (mover and
	// faulty), c (reader, tag blue).
	a, b, c runtime.Handle
	stop    chan struct{}
	stopped chan struct{}
	// jobs run on the loop's goroutine (onWorld).
	jobs chan func()
	out  syncbuf.Buffer
}

// newWorld builds the scene of testdata/scripts, an inspector with opts,
// runs setup, and starts the loop with a frame every tick (none when tick
// is 0: the loop then only serves requests).
func newWorld(t *testing.T, opts Options, tick time.Duration, setup ...func(*world)) *world {
	t.Helper()
	w := &world{t: t, stop: make(chan struct{}), stopped: make(chan struct{}), jobs: make(chan func())}
	w.rt = runtime.New(runtime.Options{Seed: 1, OnError: func(error) {}})
	host, err := luabind.New(w.rt, luabind.Options{Dir: "testdata/scripts", Budget: 50 * time.Millisecond, Stdout: &w.out, Log: &w.out})
	require.NoError(t, err)
	w.host = host
	if opts.Debugger != nil {
		// A test asks for the host's debugger with any non-nil one: it
		// must exist before the scripts load.
		opts.Debugger = host.Debugger()
	}
	if tl, ok := opts.Timeline.(*history); ok {
		tl.w = w
	}
	spawn := func(name string, tags []string, scripts ...string) runtime.Handle {
		e := w.rt.Spawn()
		require.NoError(t, w.rt.SetName(e, name))
		for _, tag := range tags {
			require.NoError(t, w.rt.Tag(e, tag))
		}
		for _, s := range scripts {
			_, err := host.Attach(e, s, nil)
			require.NoError(t, err)
		}
		require.NoError(t, w.rt.Activate(e))
		return e
	}
	w.a = spawn("a", []string{"red"}, "mover")
	w.b = spawn("b", nil, "mover", "faulty")
	w.c = spawn("c", []string{"blue"}, "reader")
	require.NoError(t, w.rt.Blackboard().Set("level", 1))
	for _, s := range setup {
		s(w)
	}
	if tl, ok := opts.Timeline.(*history); ok {
		tl.start()
	}
	w.in, err = New(host, opts)
	require.NoError(t, err)
	// One frame before serving, so that faulty has failed.
	require.NoError(t, w.rt.Step(1.0/60))
	w.srv = httptest.NewServer(w.in)
	go w.loop(tick)
	t.Cleanup(w.close)
	return w
}

func (w *world) loop(tick time.Duration) {
	defer close(w.stopped)
	var frames <-chan time.Time
	if tick > 0 {
		tk := time.NewTicker(tick)
		defer tk.Stop()
		frames = tk.C
	}
	for {
		select {
		case <-w.stop:
			return
		case <-w.in.Pending():
			w.in.Drain()
		case job := <-w.jobs:
			job()
		case <-frames:
			_ = w.rt.Step(1.0 / 60)
		}
	}
}

// onWorld runs fn on the loop's goroutine, between frames, and waits.
func (w *world) onWorld(fn func()) {
	done := make(chan struct{})
	w.jobs <- func() {
		defer close(done)
		fn()
	}
	<-done
}

// close stops the loop (releasing a paused world), the server, and
// closes the host on the test's goroutine.
func (w *world) close() {
	select {
	case <-w.stop:
		return
	default:
	}
	close(w.stop)
	w.in.Close()
	if d := w.in.opts.Debugger; d != nil {
		d.Detach()
	}
	<-w.stopped
	w.srv.Close()
	_ = w.host.Close()
}

// call makes a request with header (name: value pairs) and returns the
// status and the decoded JSON body.
func (w *world) call(method, path, body string, header ...string) (int, map[string]any) {
	w.t.Helper()
	req, err := http.NewRequest(method, w.srv.URL+path, strings.NewReader(body))
	require.NoError(w.t, err)
	for i := 0; i+1 < len(header); i += 2 {
		if header[i] == "Host" {
			req.Host = header[i+1]
			continue
		}
		req.Header.Set(header[i], header[i+1])
	}
	resp, err := http.DefaultClient.Do(req)
	require.NoError(w.t, err)
	defer resp.Body.Close()
	data, err := io.ReadAll(resp.Body)
	require.NoError(w.t, err)
	var out map[string]any
	require.NoError(w.t, json.Unmarshal(data, &out), "body %q", data)
	return resp.StatusCode, out
}

// get is a GET that must answer 200.
func (w *world) get(path string) map[string]any {
	w.t.Helper()
	status, out := w.call(http.MethodGet, path, "")
	require.Equal(w.t, http.StatusOK, status, "GET %s: %v", path, out)
	return out
}

// post is a POST that must answer 200.
func (w *world) post(path, body string) map[string]any {
	w.t.Helper()
	status, out := w.call(http.MethodPost, path, body)
	require.Equal(w.t, http.StatusOK, status, "POST %s: %v", path, out)
	return out
}

// frame returns the world's frame number from /api/world.
func (w *world) frame() float64 {
	w.t.Helper()
	return w.get("/api/world")["frame"].(float64)
}

// instance returns the instance of script in an /api/entities/{id} answer.
func instanceOf(t *testing.T, entity map[string]any, script string) map[string]any {
	t.Helper()
	for _, i := range entity["instances"].([]any) {
		if inst := i.(map[string]any); inst["script"] == script {
			return inst
		}
	}
	t.Fatalf("no instance of %s in %v", script, entity)
	return nil
}

// httptestServer serves h until the test ends and returns its URL.
func httptestServer(t *testing.T, h http.Handler) string {
	s := httptest.NewServer(h)
	t.Cleanup(s.Close)
	return s.URL
}
