package lstring

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
	lua "github.com/yuin/gopher-lua"
)

// prelude defines helpers for the comparison chunks, in both states.
const prelude = `
-- G returns the values of every step of string.gmatch(s, p), steps joined
-- with "|", values with ",".
function G(s, p)
  local out = {}
  for a, b, c in string.gmatch(s, p) do
    local step = tostring(a)
    if b ~= nil then step = step .. "," .. tostring(b) end
    if c ~= nil then step = step .. "," .. tostring(c) end
    out[#out + 1] = step
  end
  return table.concat(out, "|")
end
`

// newOriginal returns a state with gopher-lua's own string functions.
func newOriginal(t testing.TB) *lua.LState {
	t.Helper()
	L := lua.NewState()
	t.Cleanup(L.Close)
	require.NoError(t, L.DoString(prelude))
	return L
}

// newBounded returns a state whose string functions are this package's.
func newBounded(t testing.TB, lim Limits) *lua.LState {
	t.Helper()
	L := lua.NewState()
	t.Cleanup(L.Close)
	Register(L, L.GetGlobal("string").(*lua.LTable), lim)
	require.NoError(t, L.DoString(prelude))
	return L
}

// outcome is what a chunk or call returned, rendered, or the message of the
// error it raised.
type outcome struct {
	Values []string
	Err    string
}

func (o outcome) String() string {
	if o.Err != "" {
		return "error: " + o.Err
	}
	return "[" + strings.Join(o.Values, " ") + "]"
}

// render renders a returned value with its type, so that 1 and "1" differ.
// Tables and functions render as their type alone: their addresses differ
// from state to state.
func render(v lua.LValue) string {
	switch v.Type() {
	case lua.LTString:
		return fmt.Sprintf("%q", string(v.(lua.LString)))
	case lua.LTNumber, lua.LTBool, lua.LTNil:
		return v.Type().String() + ":" + v.String()
	default:
		return v.Type().String()
	}
}

// errMessage returns the message of a Lua error without its traceback.
func errMessage(err error) string {
	if apiErr, ok := err.(*lua.ApiError); ok {
		return apiErr.Object.String()
	}
	return err.Error()
}

// runChunk runs code in L and returns its outcome.
func runChunk(L *lua.LState, code string) outcome {
	top := L.GetTop()
	defer L.SetTop(top)
	if err := L.DoString(code); err != nil {
		return outcome{Err: errMessage(err)}
	}
	var o outcome
	for i := top + 1; i <= L.GetTop(); i++ {
		o.Values = append(o.Values, render(L.Get(i)))
	}
	if o.Values == nil {
		o.Values = []string{}
	}
	return o
}

// callString calls string.name with args in L, protected, and returns its
// outcome.
func callString(L *lua.LState, name string, args ...lua.LValue) outcome {
	top := L.GetTop()
	defer L.SetTop(top)
	fn := L.GetField(L.GetGlobal("string"), name)
	L.Push(fn)
	for _, a := range args {
		L.Push(a)
	}
	if err := L.PCall(len(args), lua.MultRet, nil); err != nil {
		return outcome{Err: errMessage(err)}
	}
	o := outcome{Values: []string{}}
	for i := top + 1; i <= L.GetTop(); i++ {
		o.Values = append(o.Values, render(L.Get(i)))
	}
	return o
}
