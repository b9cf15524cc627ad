package luabind

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	lua "github.com/yuin/gopher-lua"

	"github.com/luahost/luahost/luabind/internal/luaerr"
)

// TestRecursionDepth: Lua-to-Lua recursion 10,000 deep works; a runaway
// one is Lua 5.1's "stack overflow" at the script's line, caught or not,
// and its traceback keeps gopher-lua's shape: the innermost and outermost
// frames around a "...".
func TestRecursionDepth(t *testing.T) {
	for _, tc := range []struct {
		name, src, out, msg string
	}{
		{"10,000 deep", "local function d(n) if n == 0 then return 0 end return 1 + d(n - 1) end\nprint(d(10000))", "10000\n", ""},
		{"mutual 5,000", "local odd\nlocal function even(n) if n == 0 then return true end return odd(n - 1) end\nfunction odd(n) if n == 0 then return false end return even(n - 1) end\nprint(even(5000))", "true\n", ""},
		{"runaway caught", "local function r() return 1 + r() end\nprint(pcall(r))", "false\tstack overflow\n", ""},
		{"runaway", "local function r() return 1 + r() end\nr()", "", "prog.lua:1: stack overflow"},
		{"metamethod runaway", "local t = setmetatable({}, {__index = function(t, k) return t[k] end})\nreturn t.x", "", "prog.lua:1: stack overflow"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			w := newWorld(t, withBudget(-1, 0))
			out, msg := runSource(t, w, tc.src)
			assert.Equal(t, tc.out, out)
			assert.Equal(t, tc.msg, msg)
		})
	}
}

// TestShallowTrace: on a shallow stack, gopher-lua's own traceback is
// kept.
func TestShallowTrace(t *testing.T) {
	w := newWorld(t, withBudget(-1, 0))
	L := w.h.newSandbox()
	defer L.Close()
	trace := "unset"
	L.SetGlobal("capture", L.NewFunction(func(L *lua.LState) int {
		trace = luaerr.DeepTrace(L)
		return 0
	}))
	require.NoError(t, L.DoString("local function d(n) if n == 0 then capture() return 0 end return 1 + d(n - 1) end\nd(10)"))
	assert.Empty(t, trace)
}

// TestDeepTraceFormat: deepTrace's lines are those gopher-lua writes.
func TestDeepTraceFormat(t *testing.T) {
	w := newWorld(t, withBudget(-1, 0))
	L := w.h.newSandbox()
	defer L.Close()
	var trace string
	L.SetGlobal("capture", L.NewFunction(func(L *lua.LState) int {
		trace = luaerr.DeepTrace(L)
		return 0
	}))
	require.NoError(t, L.DoString("local function d(n) if n == 0 then capture() return 0 end return 1 + d(n - 1) end\nd(100)"))
	lines := strings.Split(trace, "\n")
	require.Len(t, lines, 1+luaerr.TraceEnds+1+luaerr.TraceEnds)
	assert.Equal(t, "stack traceback:", lines[0])
	assert.Equal(t, "\t[G]: in function 'capture'", lines[1])
	assert.Equal(t, "\t<string>:1: in function 'd'", lines[2])
	assert.Equal(t, "\t...", lines[1+luaerr.TraceEnds])
	assert.Equal(t, "\t<string>:2: in main chunk", lines[len(lines)-2])
	assert.Equal(t, "\t[G]: ?", lines[len(lines)-1])
}

// TestEmitOnFullStack: an event handler that cannot start because the
// emit is the call stack's last frame fails alone with "stack overflow"
// at the emit's line; the recursion that emitted sees its own overflow
// and its frames intact (the script asserts it).
func TestEmitOnFullStack(t *testing.T) {
	w := newWorld(t, withBudget(10*hostileBound, 0))
	w.spawn("", "hostile/emit_full_stack")
	w.step(1, 0.1)
	errs := w.scriptErrors()
	require.Len(t, errs, 1, "the handler alone fails")
	assert.Equal(t, "events.ping", errs[0].Callback)
	assert.Equal(t, "testdata/scripts/hostile/emit_full_stack.lua:13: stack overflow", errs[0].Message)
}

// TestPcallOnFullStack: recursions through pcall and xpcall that fill the
// call stack, whichever of their frames is the one that does not fit,
// end with the innermost call's "stack overflow" and every frame around
// intact (the script asserts it and prints "intact"). A long budget:
// each recursion is 12,000 frames deep.
func TestPcallOnFullStack(t *testing.T) {
	w := newWorld(t, withBudget(10*hostileBound, 0))
	w.spawn("", "hostile/pcall_full_stack")
	w.step(1, 0.1)
	w.requireNoErrors()
	assert.Equal(t, []string{"intact"}, w.lines())
}
