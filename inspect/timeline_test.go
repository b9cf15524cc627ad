package inspect

import (
	"io"
	"net/http"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/luahost/luahost/luabind"
	"github.com/luahost/luahost/rewind"
	"github.com/luahost/luahost/runtime"
	"github.com/luahost/luahost/snapshot"
)

// history is a Timeline over package rewind for the tests' world, as the
// CLI keeps one: every frame recorded, a rewind going on in a new host.
type history struct {
	w  *world
	hi *rewind.History
}

func newHistory() *history { return &history{hi: rewind.New(rewind.Options{Frames: 600, Every: 10})} }

func (tl *history) start() {
	require.NoError(tl.w.t, tl.hi.Record(tl.w.host, tl.w.rt.Frame(), 0))
	tl.follow(tl.w.rt, tl.w.host)
}

func (tl *history) follow(rt *runtime.Runtime, host *luabind.Host) {
	rt.AfterStep(func() {
		if tl.w.rt == rt {
			_ = tl.hi.Record(host, rt.Frame(), rt.DT())
		}
	})
}

func (tl *history) Range() (first, last uint64) { return tl.hi.Range() }

func (tl *history) Rewind(frame uint64) (*luabind.Host, error) {
	rt, host, err := tl.hi.Rewind(frame, func(snap *snapshot.World) (*runtime.Runtime, *luabind.Host, error) {
		rt := runtime.New(runtime.Options{OnError: func(error) {}})
		host, err := luabind.New(rt, luabind.Options{Dir: "testdata/scripts", Budget: 50 * time.Millisecond, Stdout: io.Discard, Log: io.Discard})
		if err != nil {
			return nil, nil, err
		}
		return rt, host, host.Restore(snap)
	})
	if err != nil {
		return nil, err
	}
	if d := tl.w.in.opts.Debugger; d != nil {
		host.UseDebugger(d)
	}
	old := tl.w.host
	tl.w.rt, tl.w.host = rt, host
	_ = old.Close()
	tl.hi.Truncate(frame)
	tl.follow(rt, host)
	return host, nil
}

func posX(t *testing.T, w *world, id string) float64 {
	t.Helper()
	return w.get("/api/entities/" + id)["position"].([]any)[0].(float64)
}

// TestRewindAPI: a world with a history is moved back by frame and by
// frames back; the entity is where it was then, the world paused there;
// frames not held and bad bodies are refused; a world with no history
// answers 409.
func TestRewindAPI(t *testing.T) {
	w := newWorld(t, Options{Timeline: newHistory()}, 2*time.Millisecond)
	a := w.a.String()
	require.Eventually(t, func() bool { return w.frame() > 45 }, 10*time.Second, 2*time.Millisecond)
	w.post("/api/pause", "{}")
	w.post("/api/rewind", `{"frame": 41}`)
	require.Equal(t, 41.0, w.frame())
	tl := w.get("/api/timeline")
	assert.Equal(t, map[string]any{"first": 0.0, "last": 41.0, "frame": 41.0}, tl)
	x41 := posX(t, w, a)
	back := w.post("/api/rewind", `{"back": 30}`)
	assert.Equal(t, 11.0, back["frame"])
	assert.Equal(t, true, back["paused"])
	x11 := posX(t, w, a)
	assert.Less(t, x11, x41, "the mover is back where it was")
	for range 30 {
		w.post("/api/step", "{}")
	}
	assert.Equal(t, x41, posX(t, w, a), "run forward again, it is where it was at frame 41")
	w.post("/api/rewind", `{"frame": 11}`)
	assert.Equal(t, x11, posX(t, w, a))

	for _, tc := range []struct {
		name, body string
		status     int
	}{
		{"not held yet", `{"frame": 12}`, http.StatusConflict},
		{"neither", `{}`, http.StatusBadRequest},
		{"both", `{"frame": 1, "back": 1}`, http.StatusBadRequest},
		{"break without a debugger", `{"back": 1, "break": {"entity": "` + a + `", "script": "mover", "callback": "onUpdate"}}`, http.StatusConflict},
	} {
		t.Run(tc.name, func(t *testing.T) {
			status, out := w.call(http.MethodPost, "/api/rewind", tc.body)
			assert.Equal(t, tc.status, status, "%v", out)
		})
	}

	plain := newWorld(t, Options{}, 0)
	status, _ := plain.call(http.MethodPost, "/api/rewind", `{"back": 1}`)
	assert.Equal(t, http.StatusConflict, status)
	status, _ = plain.call(http.MethodGet, "/api/timeline", "")
	assert.Equal(t, http.StatusConflict, status)
	status, _ = plain.call(http.MethodGet, "/api/debug", "")
	assert.Equal(t, http.StatusConflict, status)
	ro := newWorld(t, Options{ReadOnly: true, Timeline: newHistory(), Debugger: &luabind.Debugger{}}, 0)
	for _, path := range []string{"/api/rewind", "/api/debug/breakpoints", "/api/debug/continue"} {
		status, _ = ro.call(http.MethodPost, path, `{"back": 1}`)
		assert.Equal(t, http.StatusForbidden, status, path)
	}
}

// waitDebug waits until /api/debug says the world is paused (or not).
func waitDebug(t *testing.T, w *world, paused bool) map[string]any {
	t.Helper()
	var out map[string]any
	require.Eventually(t, func() bool {
		out = w.get("/api/debug")
		return out["paused"] == paused
	}, 10*time.Second, 2*time.Millisecond)
	return out
}

// TestDebugAPI: the page's debugger endpoints: a script's source, a
// breakpoint set by path and line pauses the running world there, the
// stack and the frame's locals and self are read, steps go on, and
// continue runs on; unknown scripts and actions, and inspecting a
// running world, are refused.
func TestDebugAPI(t *testing.T) {
	w := newWorld(t, Options{Debugger: &luabind.Debugger{}}, 5*time.Millisecond)
	src := w.get("/api/debug/source?script=mover")
	path, err := filepath.Abs("testdata/scripts/mover.lua")
	require.NoError(t, err)
	assert.Equal(t, path, src["path"])
	assert.Contains(t, src["source"], "ctx.entity:setPosition")
	status, _ := w.call(http.MethodGet, "/api/debug/source?script=nope", "")
	assert.Equal(t, http.StatusNotFound, status)
	status, _ = w.call(http.MethodGet, "/api/debug/frame?frame=0", "")
	assert.Equal(t, http.StatusConflict, status, "a running world has no frame to show")

	set := w.post("/api/debug/breakpoints", `{"path": `+strconv.Quote(path)+`, "lines": [8]}`)
	assert.Equal(t, []any{map[string]any{"path": path, "line": 8.0}}, set["breakpoints"])
	st := waitDebug(t, w, true)
	assert.Equal(t, map[string]any{"reason": "breakpoint", "path": path, "line": 8.0}, st["stop"])
	top := st["stack"].([]any)[0].(map[string]any)
	assert.Equal(t, map[string]any{"name": "onUpdate", "path": path, "line": 8.0}, top)
	fr := w.get("/api/debug/frame?frame=0")
	names := map[string]bool{}
	for _, sc := range fr["scopes"].([]any) {
		scope := sc.(map[string]any)
		names[scope["name"].(string)] = true
		if scope["name"] == "self" {
			assert.NotEmpty(t, scope["variables"])
		}
	}
	assert.Equal(t, map[string]bool{"Locals": true, "Upvalues": true, "self": true}, names)
	src = w.get("/api/debug/source?path=" + path)
	assert.Equal(t, "mover", src["script"], "a source is read while the world is paused in the debugger")

	w.post("/api/debug/next", "{}")
	st = waitDebug(t, w, true)
	assert.Equal(t, "step", st["stop"].(map[string]any)["reason"])
	assert.Equal(t, 9.0, st["stop"].(map[string]any)["line"])
	status, _ = w.call(http.MethodPost, "/api/debug/jump", "{}")
	assert.Equal(t, http.StatusNotFound, status)
	w.post("/api/debug/breakpoints", `{"path": `+strconv.Quote(path)+`, "lines": []}`)
	w.post("/api/debug/continue", "{}")
	waitDebug(t, w, false)
	status, _ = w.call(http.MethodPost, "/api/debug/breakpoints", `{"path": "", "lines": [1]}`)
	assert.Equal(t, http.StatusBadRequest, status)
}

// TestRewindBreak: moved back with "break", the world pauses once where
// the named instance's callback starts, in that instance; a rewind asked
// while the world is paused in the debugger lets the frame finish first,
// unless the frame is not held, which is refused with the world left
// paused.
func TestRewindBreak(t *testing.T) {
	w := newWorld(t, Options{Debugger: &luabind.Debugger{}, Timeline: newHistory()}, 5*time.Millisecond)
	// a's mover is told apart from b's by its speed.
	w.post("/api/entities/"+w.a.String()+"/self", `{"script": "mover", "key": "speed", "value": 5}`)
	edited := w.frame()
	require.Eventually(t, func() bool { return w.frame() > edited+25 }, 10*time.Second, 2*time.Millisecond)
	path, err := filepath.Abs("testdata/scripts/mover.lua")
	require.NoError(t, err)
	w.post("/api/debug/breakpoints", `{"path": `+strconv.Quote(path)+`, "lines": [9]}`)
	waitDebug(t, w, true)
	w.post("/api/debug/breakpoints", `{"path": `+strconv.Quote(path)+`, "lines": []}`)
	status, out := w.call(http.MethodPost, "/api/rewind", `{"frame": 100000}`)
	assert.Equal(t, http.StatusConflict, status, "%v", out)
	assert.Equal(t, true, w.get("/api/debug")["paused"], "a refused rewind leaves the paused world where it is")

	b := w.b.String()
	back := w.post("/api/rewind", `{"back": 10, "break": {"entity": "`+b+`", "script": "mover", "callback": "onUpdate"}}`)
	assert.Equal(t, true, back["paused"])
	assert.Equal(t, []any{map[string]any{"path": path, "line": 7.0}}, w.get("/api/debug")["breakpoints"])
	w.post("/api/resume", "{}")
	st := waitDebug(t, w, true)
	assert.Equal(t, 7.0, st["stop"].(map[string]any)["line"])
	fr := w.get("/api/debug/frame?frame=0")
	speed := ""
	for _, sc := range fr["scopes"].([]any) {
		if scope := sc.(map[string]any); scope["name"] == "self" {
			for _, v := range scope["variables"].([]any) {
				if v := v.(map[string]any); v["name"] == "speed" {
					speed = v["value"].(string)
				}
			}
		}
	}
	assert.Equal(t, "1", speed, "paused in b's callback, not a's")
	assert.Empty(t, w.get("/api/debug")["breakpoints"], "the breakpoint was for once")
	w.post("/api/debug/continue", "{}")
	waitDebug(t, w, false)
}
