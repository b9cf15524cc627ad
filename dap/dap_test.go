package dap

import (
	"io"
	"net"
	"path/filepath"
	"testing"
	"time"

	godap "github.com/google/go-dap"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/luahost/luahost/dap/daptest"
	"github.com/luahost/luahost/luabind"
	"github.com/luahost/luahost/runtime"
)

// debugScripts holds the script the debugger tests step through, shared
// with luabind's own tests.
const debugScripts = "../luabind/testdata/scripts/debug"

// TestSession: a client attaches, sets a breakpoint and break on errors,
// is told where the world paused, reads the stack, the locals and self,
// evaluates read-only, steps over, continues, and is stopped at the
// script's error.
func TestSession(t *testing.T) {
	rt := runtime.New(runtime.Options{Seed: 1, OnError: func(error) {}})
	h, err := luabind.New(rt, luabind.Options{Dir: debugScripts, Budget: -1, Stdout: io.Discard, Log: io.Discard})
	require.NoError(t, err)
	defer h.Close()
	srv, err := Listen("127.0.0.1:0", h.Debugger())
	require.NoError(t, err)
	c := daptest.Dial(t, srv.Addr().String())

	init := c.Request("initialize", map[string]any{"adapterID": "luahost"}).(*godap.InitializeResponse)
	assert.True(t, init.Body.SupportsConfigurationDoneRequest)
	assert.True(t, init.Body.SupportsConditionalBreakpoints)
	c.Request("attach", map[string]any{})
	file, err := filepath.Abs(filepath.Join(debugScripts, "counter.lua"))
	require.NoError(t, err)
	bps := c.Request("setBreakpoints", map[string]any{"source": map[string]any{"path": file}, "breakpoints": []map[string]any{{"line": 13}}}).(*godap.SetBreakpointsResponse)
	require.Len(t, bps.Body.Breakpoints, 1)
	assert.True(t, bps.Body.Breakpoints[0].Verified)
	missing := c.Request("setBreakpoints", map[string]any{"source": map[string]any{"path": file + ".missing"}, "breakpoints": []map[string]any{{"line": 1}}}).(*godap.SetBreakpointsResponse)
	require.Len(t, missing.Body.Breakpoints, 1)
	assert.False(t, missing.Body.Breakpoints[0].Verified, "a path that names no script")
	assert.Equal(t, "no script at "+file+".missing", missing.Body.Breakpoints[0].Message)
	c.Request("setExceptionBreakpoints", map[string]any{"filters": []string{"error"}})
	c.Request("configurationDone", nil)
	select {
	case <-srv.Ready():
	case <-time.After(5 * time.Second):
		require.FailNow(t, "not ready after configurationDone")
	}
	var initialized bool
	for _, e := range c.Events {
		_, ok := e.(*godap.InitializedEvent)
		initialized = initialized || ok
	}
	assert.True(t, initialized, "initialized event after initialize")

	e := rt.Spawn()
	_, err = h.Attach(e, "counter", nil)
	require.NoError(t, err)
	require.NoError(t, rt.Activate(e))
	done := make(chan struct{})
	go func() {
		defer close(done)
		for range 3 {
			if rt.Step(1.0/60) != nil {
				return
			}
		}
	}()

	stop := c.Stopped()
	assert.Equal(t, "breakpoint", stop.Reason)
	assert.Equal(t, ThreadID, stop.ThreadId)
	threads := c.Request("threads", nil).(*godap.ThreadsResponse)
	assert.Equal(t, []godap.Thread{{Id: ThreadID, Name: "world"}}, threads.Body.Threads)
	st := c.Request("stackTrace", map[string]any{"threadId": ThreadID}).(*godap.StackTraceResponse)
	require.NotEmpty(t, st.Body.StackFrames)
	top := st.Body.StackFrames[0]
	assert.Equal(t, "onUpdate", top.Name)
	assert.Equal(t, 13, top.Line)
	assert.Equal(t, file, top.Source.Path)
	scopes := c.Request("scopes", map[string]any{"frameId": top.Id}).(*godap.ScopesResponse)
	require.Len(t, scopes.Body.Scopes, 3)
	assert.Equal(t, []string{"Locals", "Upvalues", "self"}, []string{scopes.Body.Scopes[0].Name, scopes.Body.Scopes[1].Name, scopes.Body.Scopes[2].Name})
	locals := c.Request("variables", map[string]any{"variablesReference": scopes.Body.Scopes[0].VariablesReference}).(*godap.VariablesResponse)
	assert.Contains(t, locals.Body.Variables, godap.Variable{Name: "before", Value: "0", Type: "number"})
	self := c.Request("variables", map[string]any{"variablesReference": scopes.Body.Scopes[2].VariablesReference}).(*godap.VariablesResponse)
	assert.Contains(t, self.Body.Variables, godap.Variable{Name: "name", Value: `"c"`, Type: "string"})
	ev := c.Request("evaluate", map[string]any{"expression": "self.count + 40", "frameId": top.Id, "context": "watch"}).(*godap.EvaluateResponse)
	assert.Equal(t, "40", ev.Body.Result)
	refused := c.Request("evaluate", map[string]any{"expression": "before = 3", "frameId": top.Id, "context": "watch"})
	assert.False(t, refused.(godap.ResponseMessage).GetResponse().Success, "a watch does not assign")

	c.Request("next", map[string]any{"threadId": ThreadID})
	stop = c.Stopped()
	assert.Equal(t, "step", stop.Reason)
	st = c.Request("stackTrace", map[string]any{"threadId": ThreadID}).(*godap.StackTraceResponse)
	assert.Equal(t, 14, st.Body.StackFrames[0].Line)

	c.Request("setBreakpoints", map[string]any{"source": map[string]any{"path": file}, "breakpoints": []map[string]any{}})
	c.Request("continue", map[string]any{"threadId": ThreadID})
	stop = c.Stopped()
	assert.Equal(t, "exception", stop.Reason)
	assert.Contains(t, stop.Text, "too many: 6")
	c.Request("disconnect", nil)
	select {
	case <-done:
	case <-time.After(10 * time.Second):
		require.FailNow(t, "the world did not run on after the client left")
	}
	require.NoError(t, srv.Close(0))
}

// TestOneClient: a second client is refused while one is connected, and
// an unknown request is answered with an error, not a broken session.
func TestOneClient(t *testing.T) {
	rt := runtime.New(runtime.Options{Seed: 1, OnError: func(error) {}})
	h, err := luabind.New(rt, luabind.Options{Dir: debugScripts, Stdout: io.Discard, Log: io.Discard})
	require.NoError(t, err)
	defer h.Close()
	srv, err := Listen("127.0.0.1:0", h.Debugger())
	require.NoError(t, err)
	defer srv.Close(0)
	c := daptest.Dial(t, srv.Addr().String())
	c.Request("initialize", map[string]any{"adapterID": "luahost"})
	second, err := net.DialTimeout("tcp", srv.Addr().String(), 5*time.Second)
	require.NoError(t, err)
	defer second.Close()
	require.NoError(t, second.SetReadDeadline(time.Now().Add(5*time.Second)))
	_, err = second.Read(make([]byte, 1))
	assert.Error(t, err, "the second connection is closed")
	resp := c.Request("restart", nil).(godap.ResponseMessage).GetResponse()
	assert.False(t, resp.Success)
	notPaused := c.Request("stackTrace", map[string]any{"threadId": ThreadID}).(godap.ResponseMessage).GetResponse()
	assert.False(t, notPaused.Success)
	assert.Contains(t, notPaused.Message, "not paused")
}

// TestContinuedByAnother: a world paused at the client's breakpoint and
// resumed by another client of the same debugger (the inspector's page)
// is told to the client with a continued event.
func TestContinuedByAnother(t *testing.T) {
	rt := runtime.New(runtime.Options{Seed: 1, OnError: func(error) {}})
	h, err := luabind.New(rt, luabind.Options{Dir: debugScripts, Budget: -1, Stdout: io.Discard, Log: io.Discard})
	require.NoError(t, err)
	defer h.Close()
	d := h.Debugger()
	srv, err := Listen("127.0.0.1:0", d)
	require.NoError(t, err)
	defer srv.Close(0)
	c := daptest.Dial(t, srv.Addr().String())
	c.Request("initialize", map[string]any{"adapterID": "luahost"})
	file, err := filepath.Abs(filepath.Join(debugScripts, "counter.lua"))
	require.NoError(t, err)
	c.Request("setBreakpoints", map[string]any{"source": map[string]any{"path": file}, "breakpoints": []map[string]any{{"line": 13}}})
	c.Request("configurationDone", nil)
	e := rt.Spawn()
	_, err = h.Attach(e, "counter", nil)
	require.NoError(t, err)
	require.NoError(t, rt.Activate(e))
	done := make(chan struct{})
	go func() {
		defer close(done)
		_ = rt.Step(1.0 / 60)
	}()
	c.Stopped()
	c.Request("next", map[string]any{"threadId": ThreadID})
	c.Stopped()
	for _, m := range c.Events {
		_, ok := m.(*godap.ContinuedEvent)
		assert.False(t, ok, "no continued event for the client's own step")
	}
	d.SetBreakpoints(file, nil)
	require.NoError(t, d.Continue(), "the other client continues")
	ev := daptest.Event[*godap.ContinuedEvent](c)
	assert.Equal(t, ThreadID, ev.Body.ThreadId)
	<-done
}
