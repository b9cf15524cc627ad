package luabind

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestProtectedCalls checks pcall, xpcall and error against what Lua 5.1
// prints, including the cases gopher-lua gets wrong (its issue 448, and
// its handler flag cleared by a nested pcall) and the documented
// difference that remains.
func TestProtectedCalls(t *testing.T) {
	for _, tc := range []struct {
		name, src, want string
	}{
		{"issue 448", `local c; local function f() pcall(error, "e") c = 1 end; f(); print(c)`, "1\n"},
		{"issue 448 with a runtime error", `local c; local function f() pcall(function() return nil + 1 end) c = 1 end; f(); print(c)`, "1\n"},
		{"issue 448 with xpcall", `local c; local function f() xpcall(function() error("e") end, print) c = 1 end; f(); print(c)`, "prog.lua:1: e\n1\n"},
		{"the upvalue of the error's own caller", `local n = 0; local function bump() n = n + 1 end; for i = 1, 3 do pcall(function() bump(); error("x") end) end; print(n)`, "3\n"},
		{"error levels", `local function f() error("two", 2) end; print(pcall(function() f() end))`, "false\tprog.lua:1: two\n"},
		{"error without a message", `print(pcall(error))`, "false\tnil\n"},
		{"error with a number", `print(pcall(function() error(4.5) end))`, "false\tprog.lua:1: 4.5\n"},
		{"error with a table", `local e = {}; local ok, v = pcall(error, e); print(ok, v == e)`, "false\ttrue\n"},
		{"pcall of a non-function", `print(pcall(42))`, "false\tattempt to call a number value\n"},
		{"results", `print(pcall(function(a, b) return a + b, "x" end, 1, 2))`, "true\t3\tx\n"},
		{"xpcall handler result", `print(xpcall(function() error({code = 7}) end, function(e) return e.code end))`, "false\t7\n"},
		// The failed call's upvalues are closed with their last values,
		// before the registers are reused.
		{"closure made in a failed call", `local saved; pcall(function() local kept = "kept"; saved = function() return kept end; error("x") end); local a, b = 1, 2; print(saved())`, "kept\n"},
		{"closure made in a failed xpcall", `local saved; xpcall(function() local kept = "kept"; saved = function() return kept end; error("x") end, function(m) return m end); local a, b = 1, 2; print(saved())`, "kept\n"},
		{"closure made in a failed load reader", `local saved; print(load(function() local kept = "kept"; saved = function() return kept end; error("r", 0) end)); local a, b = 1, 2; print(saved())`, "nil\tr\nkept\n"},
		{"closure made in a failed xpcall handler", `local saved; print(xpcall(error, function() local mine = "h"; saved = function() return mine end; error("again") end)); local a, b = 1, 2; print(saved())`, "false\terror in error handling\nh\n"},
		// An error in an outer pcall after an inner pcall returned kept
		// the upvalues around the outer one (gopher-lua cleared its
		// handler flag when the inner returned).
		{"runtime error after a nested pcall", `local c; local function f() pcall(function() pcall(error, "a"); local x = nil + 1 end) c = 1 end; f(); print(c)`, "1\n"},
		{"error() after a nested pcall", `local c; local function f() pcall(function() pcall(error, "a"); error("b") end) c = 1 end; f(); print(c)`, "1\n"},
		{"after a nested pcall that succeeded", `local US = "up"; local function f7() US = US .. "x" end; pcall(function() pcall(print, "hi"); error("e") end); f7(); print(US)`, "hi\nupx\n"},
		{"after a nested xpcall", `local n = 0; local function bump() n = n + 1 end; pcall(function() xpcall(bump, print); error("e") end); bump(); print(n)`, "2\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			w := newWorld(t)
			out, msg := runSource(t, w, tc.src)
			assert.Empty(t, msg)
			assert.Equal(t, tc.want, out)
		})
	}
}

// TestYieldAcrossBoundary: yielding where gopher-lua cannot suspend is a
// clean error, and a yield in a tail call resumes (gopher-lua crashes).
func TestYieldAcrossBoundary(t *testing.T) {
	for _, tc := range []struct {
		name, src, want string
	}{
		{"pcall", `print(coroutine.resume(coroutine.create(function() return pcall(coroutine.yield, 1) end)))`, "true\tfalse\tattempt to yield across metamethod/C-call boundary\n"},
		{"metamethod", `local t = setmetatable({}, {__index = function() return coroutine.yield() end}); print(coroutine.resume(coroutine.create(function() return t.x end)))`, "false\tattempt to yield across metamethod/C-call boundary\n"},
		{"gsub callback", `print(coroutine.resume(coroutine.create(function() return ("a"):gsub("a", coroutine.yield) end)))`, "false\tattempt to yield across metamethod/C-call boundary\n"},
		{"main chunk", `print(pcall(coroutine.yield))`, "false\tattempt to yield across metamethod/C-call boundary\n"},
		{"tail call", `local co = coroutine.create(function() return coroutine.yield("a") end); print(coroutine.resume(co)); print(coroutine.resume(co, "b"))`, "true\ta\ntrue\tb\n"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			w := newWorld(t)
			out, msg := runSource(t, w, tc.src)
			assert.Empty(t, msg)
			assert.Equal(t, tc.want, out)
		})
	}
}
