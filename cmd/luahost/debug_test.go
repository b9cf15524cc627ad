package main

import (
	"bufio"
	"context"
	"os/exec"
	"path/filepath"
	"regexp"
	"testing"
	"time"

	godap "github.com/google/go-dap"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/luahost/luahost/dap"
	"github.com/luahost/luahost/dap/daptest"
	"github.com/luahost/luahost/internal/syncbuf"
)

var debuggerAddr = regexp.MustCompile(`^luahost: debugger on (\S+)$`)

// startDebugged starts the real binary with run args and returns the
// debugger's address (as printed on stderr), the rest of stderr and stdout
// as they come, and the process.
func startDebugged(t *testing.T, args ...string) (addr string, cmd *exec.Cmd, stdout *syncbuf.Buffer) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), runTimeout)
	t.Cleanup(cancel)
	cmd = exec.CommandContext(ctx, luahost, append([]string{"run"}, args...)...)
	stdout = &syncbuf.Buffer{}
	cmd.Stdout = stdout
	errPipe, err := cmd.StderrPipe()
	require.NoError(t, err)
	require.NoError(t, cmd.Start())
	lines := bufio.NewScanner(errPipe)
	require.True(t, lines.Scan(), "no line on stderr")
	m := debuggerAddr.FindStringSubmatch(lines.Text())
	require.NotNil(t, m, "first line on stderr: %q", lines.Text())
	go func() {
		for lines.Scan() {
		}
	}()
	return m[1], cmd, stdout
}

// TestDebugBinary drives "luahost run --debug" over TCP as an editor
// does: the world waits for configurationDone, a breakpoint pauses it,
// the stack, locals and self are read, an expression is evaluated, a step
// over and a step in go where they should, a conditional breakpoint pauses
// only when its condition holds, break on error pauses at the error, and
// the world ends with exited and terminated.
func TestDebugBinary(t *testing.T) {
	addr, cmd, stdout := startDebugged(t, "testdata/debug/scene.json", "--frames", "3", "--debug", "127.0.0.1:0")
	assert.NotContains(t, addr, ":0", "the port picked is printed")
	c := daptest.Dial(t, addr)
	daptest.Response[*godap.InitializeResponse](c, "initialize", map[string]any{"adapterID": "luahost"})
	daptest.Response[*godap.AttachResponse](c, "attach", map[string]any{})
	file, err := filepath.Abs("../../luabind/testdata/scripts/debug/counter.lua")
	require.NoError(t, err)
	setBreakpoints := func(bps ...map[string]any) {
		daptest.Response[*godap.SetBreakpointsResponse](c, "setBreakpoints", map[string]any{"source": map[string]any{"path": file}, "breakpoints": bps})
	}
	setBreakpoints(map[string]any{"line": 13})
	daptest.Response[*godap.SetExceptionBreakpointsResponse](c, "setExceptionBreakpoints", map[string]any{"filters": []string{"error"}})
	time.Sleep(100 * time.Millisecond)
	assert.Empty(t, stdout.String(), "the world waits for configurationDone")
	daptest.Response[*godap.ConfigurationDoneResponse](c, "configurationDone", nil)

	stop := c.Stopped()
	assert.Equal(t, "breakpoint", stop.Reason)
	st := daptest.Response[*godap.StackTraceResponse](c, "stackTrace", map[string]any{"threadId": 1})
	require.NotEmpty(t, st.Body.StackFrames)
	top := st.Body.StackFrames[0]
	assert.Equal(t, "onUpdate", top.Name)
	assert.Equal(t, 13, top.Line)
	assert.Equal(t, file, top.Source.Path)
	scopes := daptest.Response[*godap.ScopesResponse](c, "scopes", map[string]any{"frameId": top.Id})
	require.Len(t, scopes.Body.Scopes, 3)
	locals := daptest.Response[*godap.VariablesResponse](c, "variables", map[string]any{"variablesReference": scopes.Body.Scopes[0].VariablesReference})
	assert.Contains(t, locals.Body.Variables, godap.Variable{Name: "before", Value: "0", Type: "number"})
	self := daptest.Response[*godap.VariablesResponse](c, "variables", map[string]any{"variablesReference": scopes.Body.Scopes[2].VariablesReference})
	assert.Contains(t, self.Body.Variables, godap.Variable{Name: "count", Value: "0", Type: "number"})
	ev := daptest.Response[*godap.EvaluateResponse](c, "evaluate", map[string]any{"expression": "before + 1", "frameId": top.Id, "context": "watch"})
	assert.Equal(t, "1", ev.Body.Result)

	daptest.Response[*godap.StepInResponse](c, "stepIn", map[string]any{"threadId": 1})
	assert.Equal(t, "step", c.Stopped().Reason)
	st = daptest.Response[*godap.StackTraceResponse](c, "stackTrace", map[string]any{"threadId": 1})
	assert.Equal(t, "bump", st.Body.StackFrames[0].Name)
	assert.Equal(t, 5, st.Body.StackFrames[0].Line)
	daptest.Response[*godap.StepOutResponse](c, "stepOut", map[string]any{"threadId": 1})
	c.Stopped()
	daptest.Response[*godap.NextResponse](c, "next", map[string]any{"threadId": 1})
	assert.Equal(t, "step", c.Stopped().Reason)
	st = daptest.Response[*godap.StackTraceResponse](c, "stackTrace", map[string]any{"threadId": 1})
	assert.Equal(t, 14, st.Body.StackFrames[0].Line)

	// Frame 1 counted 2; the condition lets frame 2 (count 2) pause, not
	// frame 3.
	setBreakpoints(map[string]any{"line": 12, "condition": "self.count == 2"})
	daptest.Response[*godap.ContinueResponse](c, "continue", map[string]any{"threadId": 1})
	assert.Equal(t, "breakpoint", c.Stopped().Reason)
	ev = daptest.Response[*godap.EvaluateResponse](c, "evaluate", map[string]any{"expression": "self.count", "frameId": 1, "context": "watch"})
	assert.Equal(t, "2", ev.Body.Result)

	setBreakpoints()
	daptest.Response[*godap.ContinueResponse](c, "continue", map[string]any{"threadId": 1})
	stop = c.Stopped()
	assert.Equal(t, "exception", stop.Reason)
	assert.Contains(t, stop.Text, "too many: 6")
	daptest.Response[*godap.ContinueResponse](c, "continue", map[string]any{"threadId": 1})

	exited := daptest.Event[*godap.ExitedEvent](c)
	assert.Equal(t, 0, exited.Body.ExitCode)
	daptest.Event[*godap.TerminatedEvent](c)
	require.NoError(t, cmd.Wait())
	assert.Empty(t, stdout.String(), "the script prints nothing")
}

// TestDebugUsage: --debug-nowait without --debug, and --debug with
// --zones, are refused as bad usage.
func TestDebugUsage(t *testing.T) {
	for _, args := range [][]string{
		{"run", "testdata/debug/scene.json", "--debug-nowait"},
		{"run", "testdata/debug/scene.json", "--debug", "127.0.0.1:0", "--zones", "2"},
	} {
		res := luahostRun(t, args...)
		assert.Equal(t, exitUsage, res.code, "%v: %s", args, res.stderr)
	}
}

// TestDebugRewind: an editor attached to a world run with --rewind sends
// the custom rewind request, with the inspector served or without it:
// the world goes back to frame 1 and the debugger pauses at the first
// line a script runs, where self is as it was after frame 1, though the
// instance had faulted since.
func TestDebugRewind(t *testing.T) {
	for _, tc := range []struct {
		name string
		args []string
	}{
		{"with the inspector", []string{"--inspect", "127.0.0.1:0"}},
		{"the editor alone", nil},
	} {
		t.Run(tc.name, func(t *testing.T) { debugRewind(t, tc.args...) })
	}
}

// debugRewind moves a world run with --debug, --rewind and args back
// through the editor's rewind request.
func debugRewind(t *testing.T, args ...string) {
	args = append([]string{"testdata/debug/scene.json", "--debug", "127.0.0.1:0", "--rewind", "100", "--frames", "300", "--fps", "200"}, args...)
	addr, cmd, _ := startDebugged(t, args...)
	c := daptest.Dial(t, addr)
	c.Codec = dap.NewCodec()
	daptest.Response[*godap.InitializeResponse](c, "initialize", map[string]any{"adapterID": "luahost"})
	daptest.Response[*godap.AttachResponse](c, "attach", map[string]any{})
	daptest.Response[*godap.ConfigurationDoneResponse](c, "configurationDone", nil)

	var back *dap.RewindResponse
	require.Eventually(t, func() bool {
		r, ok := c.Request("rewind", map[string]any{"frame": 1}).(*dap.RewindResponse)
		back = r
		return ok && r.Success
	}, 20*time.Second, 20*time.Millisecond, "frame 1 is held once the world has run it")
	assert.Equal(t, uint64(1), back.Body.Frame)
	stop := c.Stopped()
	assert.Equal(t, "pause", stop.Reason)
	st := daptest.Response[*godap.StackTraceResponse](c, "stackTrace", map[string]any{"threadId": 1})
	require.NotEmpty(t, st.Body.StackFrames)
	assert.Equal(t, 12, st.Body.StackFrames[0].Line)
	ev := daptest.Response[*godap.EvaluateResponse](c, "evaluate", map[string]any{"expression": "self.count", "frameId": 1, "context": "watch"})
	assert.Equal(t, "2", ev.Body.Result, "the world of frame 1, before the fault")

	r := c.Request("rewind", map[string]any{"frame": 250})
	assert.False(t, r.(godap.ResponseMessage).GetResponse().Success, "a frame not run yet is refused")
	daptest.Response[*godap.ContinueResponse](c, "continue", map[string]any{"threadId": 1})
	daptest.Event[*godap.ExitedEvent](c)
	require.NoError(t, cmd.Wait())
}
