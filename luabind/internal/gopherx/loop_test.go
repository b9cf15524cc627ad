package gopherx

import (
	"context"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	lua "github.com/yuin/gopher-lua"
)

// counting is a context that counts the instructions of the checking
// loop, as a budget does.
type counting struct {
	context.Context
	n int
}

func (c *counting) Done() <-chan struct{} {
	c.n++
	return nil
}

// TestStraightLen: only a Lua function that calls nothing and loops
// nowhere is straight-line code, and its length is its instructions.
func TestStraightLen(t *testing.T) {
	L := lua.NewState(lua.Options{SkipOpenLibs: true})
	defer L.Close()
	tests := []struct {
		name, src string
		straight  bool
	}{
		{"arithmetic and fields", "return function(self, ctx, dt) self.a = self.a + self.s * dt end", true},
		{"branches", "return function(s) if s.a then s.b = 1 else s.b = 2 end return s.a and s.b end", true},
		{"a closure made, not called", "return function(s) s.f = function() while true do end end end", true},
		{"a call", "return function(s) s.f() end", false},
		{"a method call", "return function(s) s:f() end", false},
		{"a tail call", "return function(s) return s.f() end", false},
		{"a numeric for", "return function(s) for i = 1, 2 do s.a = i end end", false},
		{"a generic for", "return function(s) for k in s do end end", false},
		{"a while loop", "return function(s) while s.a do s.a = nil end end", false},
		{"a repeat loop", "return function(s) repeat s.a = s.b until s.a end", false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			require.NoError(t, L.DoString(tc.src))
			fn := L.Get(-1).(*lua.LFunction)
			L.Pop(1)
			if tc.straight {
				assert.Equal(t, int64(len(fn.Proto.Code)), StraightLen(fn))
			} else {
				assert.Zero(t, StraightLen(fn))
			}
		})
	}
	assert.Zero(t, StraightLen(L.NewFunction(func(*lua.LState) int { return 0 })), "a Go function")
	assert.Zero(t, StraightLen(nil))
}

// TestStraightCall: a function called through Straight runs its own
// instructions without a look at the context, a Lua function it reaches
// through a metamethod runs with one, and the state's loop checks again
// afterwards, also after an error.
func TestStraightCall(t *testing.T) {
	L := lua.NewState(lua.Options{SkipOpenLibs: true})
	defer L.Close()
	lua.OpenBase(L)
	ctx := &counting{Context: context.Background()}
	L.SetContext(ctx)
	require.NoError(t, L.DoString(`
		local meta = setmetatable({}, {__index = function(t, k) local a = 1; a = a + 1; return a end})
		plain = function(s) s.a = 1; s.b = 2; s.c = s.a + s.b end
		reaching = function(s) s.v = meta.x end
		failing = function(s) s.v = s.missing.x end
	`))
	s := NewStraight(L)
	require.NotNil(t, s)
	call := func(name string, straight bool) (looks int, err error) {
		L.Push(L.GetGlobal(name))
		L.Push(L.NewTable())
		ctx.n = 0
		defer func() {
			if r := recover(); r != nil {
				err, _ = r.(error)
				L.SetTop(0)
			}
			looks = ctx.n
		}()
		if straight {
			s.Call(1, 0)
		} else {
			L.Call(1, 0)
		}
		return ctx.n, nil
	}
	counted, err := call("plain", false)
	require.NoError(t, err)
	require.Positive(t, counted)
	looks, err := call("plain", true)
	require.NoError(t, err)
	assert.Zero(t, looks, "its own instructions are not looked at")

	countedMeta, err := call("reaching", false)
	require.NoError(t, err)
	looks, err = call("reaching", true)
	require.NoError(t, err)
	assert.Positive(t, looks, "the metamethod runs looked at")
	assert.Less(t, looks, countedMeta, "the caller's own instructions are not")

	_, err = call("failing", true)
	require.Error(t, err)
	looks, err = call("plain", false)
	require.NoError(t, err)
	assert.Equal(t, counted, looks, "after an error the state's loop checks again")
}
