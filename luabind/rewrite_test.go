package luabind

import (
	"errors"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/luahost/luahost/runtime"
)

// runSource runs src as the chunk "prog.lua" of a fresh sandboxed state of
// w's host and returns what it printed and the message of the error that
// escaped it ("" if none).
func runSource(t testing.TB, w *world, src string) (string, string) {
	t.Helper()
	st, _, err := w.h.run(&Script{host: w.h, name: "prog", file: "prog.lua"}, []byte(src))
	if st != nil {
		st.close()
	}
	w.h.Flush()
	out := w.out.String()
	w.out.Reset()
	if err == nil {
		return out, ""
	}
	var le *LoadError
	require.True(t, errors.As(err, &le), "%v", err)
	return out, le.Message
}

func TestConcatErrors(t *testing.T) {
	for _, tc := range []struct {
		name, src, want string
	}{
		{"nil local", "local name\nreturn 'hp: ' .. name", "prog.lua:2: attempt to concatenate a nil value (local 'name')"},
		{"nil global", "return 'a' .. missing .. 'b'", "prog.lua:1: attempt to concatenate a nil value (global 'missing')"},
		{"nil field", "local t = {}\nreturn t.label .. '!'", "prog.lua:2: attempt to concatenate a nil value (field 'label')"},
		{"nil upvalue", "local u\nreturn (function() return 'a' .. u end)()", "prog.lua:2: attempt to concatenate a nil value (upvalue 'u')"},
		{"table", "return 'a' .. {}", "prog.lua:1: attempt to concatenate a table value"},
		{"boolean first", "local ok = true\nreturn ok .. 'x'", "prog.lua:2: attempt to concatenate a boolean value (local 'ok')"},
		{"call result", "local function f() end\nreturn 'a' .. f()", "prog.lua:2: attempt to concatenate a nil value"},
		{"multi-line: the line of the last operand", "local x\nlocal s = 'a' ..\n  'b' ..\n  x ..\n  'c'", "prog.lua:5: attempt to concatenate a nil value (local 'x')"},
		{"shadowed global is a local", "local print\nreturn 'a' .. print", "prog.lua:2: attempt to concatenate a nil value (local 'print')"},
		{"parameter", "local function f(p) return p .. '' end\nreturn f()", "prog.lua:1: attempt to concatenate a nil value (local 'p')"},
		{"loop variable", "for k, v in pairs({1}) do local _ = v .. nothing end", "prog.lua:1: attempt to concatenate a nil value (global 'nothing')"},
		{"method self", "local o = {}\nfunction o:m() return self.n .. '' end\no:m()", "prog.lua:2: attempt to concatenate a nil value (field 'n')"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			w := newWorld(t)
			_, msg := runSource(t, w, tc.src)
			assert.Equal(t, tc.want, msg)
		})
	}
}

// TestConcatBound: a chain that would pass MaxStringSize is refused
// before it allocates, also a chain of 150 operands of a 16 MiB string
// (with the default bound; the other cases use 1 MiB to stay quick under
// the race detector).
func TestConcatBound(t *testing.T) {
	for _, tc := range []struct {
		name      string
		maxString int
		src, want string
	}{
		{"150 operands", 0, "local s = ('x'):rep(16 * 2^20)\nlocal t = s" + strings.Repeat("..s", 149), "prog.lua:2: string concatenation: result too large (limit 16777216 bytes)"},
		{"growing in a loop", 1 << 20, "local s = 'xxxxxxxx'\nfor i = 1, 40 do s = s .. s end", "prog.lua:2: string concatenation: result too large (limit 1048576 bytes)"},
		{"with a metamethod around", 1 << 20, "local m = setmetatable({}, {__concat = function(a, b) return 'm' end})\nlocal s = ('x'):rep(2^19)\nreturn m .. s .. s .. s", "prog.lua:3: string concatenation: result too large (limit 1048576 bytes)"},
		{"at the limit", 1 << 20, "local s = ('x'):rep(2^19)\nassert(#(s .. s) == 2^20)", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			w := newWorld(t, func(_ *runtime.Options, o *Options) {
				o.MaxStringSize = tc.maxString
				o.Budget = -1
			})
			_, msg := runSource(t, w, tc.src)
			assert.Equal(t, tc.want, msg)
		})
	}
}

// TestConcatMaxStringSize: the bound is the host's MaxStringSize, also
// for chunks compiled by load.
func TestConcatMaxStringSize(t *testing.T) {
	w := newWorld(t, func(_ *runtime.Options, o *Options) { o.MaxStringSize = 1000 })
	_, msg := runSource(t, w, "local s = ('x'):rep(600)\nreturn s .. s")
	assert.Equal(t, "prog.lua:2: string concatenation: result too large (limit 1000 bytes)", msg)
	out, msg := runSource(t, w, "local f = loadstring('local s = (\"x\"):rep(600) return s .. s')\nprint(pcall(f))")
	assert.Empty(t, msg)
	assert.True(t, strings.HasPrefix(out, "false\t"), out)
	assert.True(t, strings.HasSuffix(out, ":1: string concatenation: result too large (limit 1000 bytes)\n"), out)
}

// TestMultipleAssignLines: a rewritten assignment reports errors at its
// own line.
func TestMultipleAssignLines(t *testing.T) {
	w := newWorld(t)
	_, msg := runSource(t, w, "local a, t\n\na, t.x = 1, 2")
	assert.Contains(t, msg, "prog.lua:3: ")
}

// TestForgedHelperUnreachable: a script cannot forge the placeholder
// constant of the compile step's Go helpers.
func TestForgedHelperUnreachable(t *testing.T) {
	w := newWorld(t)
	out, msg := runSource(t, w, "print(pcall(function() return ('\\0luahost:' .. 'x')(1) end))")
	assert.Empty(t, msg)
	assert.True(t, strings.HasPrefix(out, "false\t"), out)
}

// TestGenericForExpressions: a generic for whose expression list holds
// more than names and calls runs (gopher-lua ran no iteration of
// for k, v in next, {...}).
func TestGenericForExpressions(t *testing.T) {
	w := newWorld(t)
	out, msg := runSource(t, w, "local s = 0\nfor _, v in next, {10, 20, 30} do s = s + v end\nfor i, v in ipairs({4, 5}) do s = s + i * v end\nprint(s)")
	assert.Empty(t, msg)
	assert.Equal(t, "74\n", out)
}

// TestMultipleAssignNames: an error on a target evaluated into a
// temporary of the rewrite names the script's variable.
func TestMultipleAssignNames(t *testing.T) {
	w := newWorld(t)
	_, msg := runSource(t, w, "local t\nt.x, t = 1, {}")
	assert.Equal(t, "prog.lua:2: attempt to index a nil value (local 't')", msg)
}

// TestNumericForStrings: a numeric for converts bounds that are numeric
// strings, as Lua 5.1 does, and still refuses other values.
func TestNumericForStrings(t *testing.T) {
	w := newWorld(t)
	out, msg := runSource(t, w, "local a, b = '1', '3'\nlocal c = 0\nfor i = a, b, '1' do c = c + i end\nlocal t = {n = '2'}\nfor i = 1, t.n do c = c + i end\nprint(c)")
	assert.Empty(t, msg)
	assert.Equal(t, "9\n", out)
	_, msg = runSource(t, w, "local x = 'many'\nfor i = 1, x do end")
	assert.Equal(t, "prog.lua:2: bad 'for' limit (number expected, got string)", msg)
}
