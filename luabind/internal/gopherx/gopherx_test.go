package gopherx

import (
	"testing"
	"unsafe"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	lua "github.com/yuin/gopher-lua"
)

// TestAssumptions: every assumption about gopher-lua's internals holds
// for the version this module is built with. A failure here is the
// first step of the upgrade checklist in docs/architecture.md.
func TestAssumptions(t *testing.T) {
	for _, a := range assumptions {
		t.Run(a.name, func(t *testing.T) {
			assert.NoError(t, a.holds(), "needed for %s", a.feature)
		})
	}
	assert.NoError(t, Check())
}

// TestCallStackCut: Cut unwinds the call stack and leaves the state
// usable, as PCall leaves it after an error.
func TestCallStackCut(t *testing.T) {
	L := lua.NewState()
	defer L.Close()
	cs := NewCallStack(L)
	require.NotNil(t, cs)
	sp := cs.Depth()
	func() {
		defer func() {
			require.NotNil(t, recover())
			cs.Cut(sp)
		}()
		L.Push(L.NewFunction(func(L *lua.LState) int {
			L.RaiseError("boom")
			return 0
		}))
		L.Call(0, 0)
	}()
	assert.Equal(t, sp, cs.Depth())
	assert.NoError(t, L.DoString("x = 1 + 1"))
}

// TestCallStackCapacity: the capacity is the size rounded up to whole
// segments.
func TestCallStackCapacity(t *testing.T) {
	assert.Equal(t, lua.FramesPerSegment, CallStackCapacity(1))
	assert.Equal(t, lua.FramesPerSegment, CallStackCapacity(lua.FramesPerSegment))
	assert.Equal(t, 2*lua.FramesPerSegment, CallStackCapacity(lua.FramesPerSegment+1))
}

// TestLimitArrayPart: the limit is what the array code of luahost
// expects, and a write past it goes to the hash part.
func TestLimitArrayPart(t *testing.T) {
	LimitArrayPart()
	require.Equal(t, ArrayPart+1, lua.MaxArrayIndex)
	tb := &lua.LTable{}
	tb.RawSetInt(ArrayPart+1, lua.LTrue)
	assert.Equal(t, 0, tb.Len(), "a key past the array part stays out of the slice")
	assert.Equal(t, lua.LTrue, tb.RawGet(lua.LNumber(ArrayPart+1)))
}

// TestNewRecord: a record reads, iterates, changes and grows like the
// table RawSetString builds, and shares nothing with the keys given.
func TestNewRecord(t *testing.T) {
	names := []string{"x", "y", "z"}
	keys := []lua.LValue{lua.LString("x"), lua.LString("y"), lua.LString("z")}
	values := []lua.LValue{lua.LNumber(1), lua.LNumber(2), lua.LNumber(3)}
	mt := &lua.LTable{}
	rec := NewRecord(names, keys, values, mt)
	want := &lua.LTable{Metatable: mt}
	for i, name := range names {
		want.RawSetString(name, values[i])
	}
	pairs := func(tb *lua.LTable) []string {
		var out []string
		for k, v := tb.Next(lua.LNil); k != lua.LNil; k, v = tb.Next(k) {
			out = append(out, k.String()+"="+v.String())
		}
		return out
	}
	assert.Equal(t, pairs(want), pairs(rec))
	assert.Equal(t, TableKeys(want), TableKeys(rec))
	assert.Same(t, mt, rec.Metatable)

	for _, tb := range []*lua.LTable{want, rec} {
		tb.RawSetString("y", lua.LNil)
		tb.RawSetString("w", lua.LNumber(4))
		tb.RawSetString("x", lua.LNumber(9))
	}
	assert.Equal(t, pairs(want), pairs(rec))
	assert.Equal(t, []string{"x=9", "z=3", "w=4"}, pairs(rec))
	assert.Len(t, keys, 3, "the caller's keys are not grown")
	other := NewRecord(names, keys, values, mt)
	assert.Equal(t, []string{"x=1", "y=2", "z=3"}, pairs(other), "records share nothing")
}

// TestTableNext: TableNext walks a table as LTable.Next does, through its
// array part, its hash part and keys whose values were removed, and says
// when it is given a key the table does not hold.
func TestTableNext(t *testing.T) {
	L := lua.NewState(lua.Options{SkipOpenLibs: true})
	defer L.Close()
	tb := L.NewTable()
	for i := 1; i <= 5; i++ {
		tb.RawSetInt(i, lua.LNumber(i*10))
	}
	for _, k := range []string{"a", "b", "c", "d"} {
		tb.RawSetString(k, lua.LString(k))
	}
	tb.RawSet(lua.LNumber(2.5), lua.LTrue)
	tb.RawSet(lua.LNumber(1e9), lua.LFalse)
	tb.RawSetInt(3, lua.LNil)
	tb.RawSetString("b", lua.LNil)
	var walked []lua.LValue
	for k := lua.LValue(lua.LNil); ; {
		key, value, ok := TableNext(tb, k)
		require.True(t, ok, "a key the table holds: %v", k)
		wantKey, wantValue := tb.Next(k)
		require.Equal(t, wantKey, key, "after %v", k)
		require.Equal(t, wantValue, value, "after %v", k)
		if key == lua.LNil {
			break
		}
		walked = append(walked, key)
		k = key
	}
	assert.Len(t, walked, 9, "4 array values, 3 strings, 2.5 and 1e9")
	for _, k := range []lua.LValue{lua.LNumber(3), lua.LString("b")} {
		_, _, ok := TableNext(tb, k)
		assert.True(t, ok, "%v: a removed value keeps its key", k)
	}
	for _, k := range []lua.LValue{lua.LString("zzz"), lua.LNumber(0), lua.LNumber(6), lua.LNumber(1.5), lua.LTrue} {
		key, _, ok := TableNext(tb, k)
		assert.False(t, ok, "%v is no key of the table", k)
		assert.Equal(t, lua.LNil, key)
	}
	_, _, ok := TableNext(L.NewTable(), lua.LString("x"))
	assert.False(t, ok, "an empty table holds no key")
}

// TestShareKeys: two tables of one shape hold one box per key after
// ShareKeys, with their values, key order and traversal unchanged.
func TestShareKeys(t *testing.T) {
	// Keys made at run time, as a script's are: each table boxes its own.
	key := func(s string) string { return string([]byte(s)) }
	newShape := func() *lua.LTable {
		tb := &lua.LTable{Metatable: lua.LNil}
		tb.RawSetString(key("speed"), lua.LNumber(90))
		tb.RawSetInt(1, lua.LString("first"))
		tb.RawSetString(key("angle"), lua.LNumber(0))
		return tb
	}
	a, b := newShape(), newShape()
	boxes := map[string]lua.LValue{}
	share := func(s lua.LString, box lua.LValue) lua.LValue {
		if shared, ok := boxes[string(s)]; ok {
			return shared
		}
		boxes[string(s)] = box
		return box
	}
	ShareKeys(a, share)
	ShareKeys(b, share)
	dataOf := func(v lua.LValue) unsafe.Pointer { return (*[2]unsafe.Pointer)(unsafe.Pointer(&v))[1] }
	keysOf := func(tb *lua.LTable) []lua.LValue {
		return *(*[]lua.LValue)(unsafe.Add(unsafe.Pointer(tb), recordLayout.keys))
	}
	k2iOf := func(tb *lua.LTable) map[lua.LValue]int {
		return *(*map[lua.LValue]int)(unsafe.Add(unsafe.Pointer(tb), recordLayout.k2i))
	}
	require.Len(t, keysOf(b), 2)
	for i, k := range keysOf(b) {
		assert.Equal(t, dataOf(keysOf(a)[i]), dataOf(k), "key %v: one box", k)
		for stored := range k2iOf(b) {
			if stored == k {
				assert.Equal(t, dataOf(k), dataOf(stored), "the index holds the shared box too")
			}
		}
	}
	for _, tb := range []*lua.LTable{a, b} {
		assert.Equal(t, lua.LNumber(90), tb.RawGetString("speed"))
		assert.Equal(t, lua.LNumber(0), tb.RawGetString("angle"))
		tb.RawSetString("angle", lua.LNumber(5))
		assert.Equal(t, lua.LNumber(5), tb.RawGetString("angle"))
		var order []string
		for k, _, ok := TableNext(tb, lua.LNil); k != lua.LNil; k, _, ok = TableNext(tb, k) {
			require.True(t, ok)
			order = append(order, k.String())
		}
		assert.Equal(t, []string{"1", "speed", "angle"}, order)
	}
}
