package luabind

import (
	"fmt"
	"math"
	"slices"

	lua "github.com/yuin/gopher-lua"

	"github.com/luahost/luahost/runtime"
)

// Values cross Lua states as plain data (SPEC 3.5): nil, booleans,
// numbers, strings, entity handles, and tables of those. A Lua value is
// turned into its runtime form (toPlain) in one state and built again
// (fromPlain) in another, so no state ever holds another's values.

// toPlain copies a Lua value out as plain data. path names the value in
// error messages ("loot.items[2]"); the error wraps runtime.ErrNotPlain.
func toPlain(v lua.LValue, path string) (any, error) {
	return toPlainDepth(v, path, 0, nil)
}

func toPlainDepth(v lua.LValue, path string, depth int, seen []*lua.LTable) (any, error) {
	switch x := v.(type) {
	case *lua.LNilType:
		return nil, nil
	case lua.LBool:
		return bool(x), nil
	case lua.LNumber:
		return float64(x), nil
	case lua.LString:
		return string(x), nil
	case *lua.LUserData:
		if h, ok := x.Value.(runtime.Handle); ok {
			return h, nil
		}
	case *lua.LTable:
		seen, err := enter(x, path, depth, seen)
		if err != nil {
			return nil, err
		}
		t := &runtime.Table{}
		for k, val := x.Next(lua.LNil); k != lua.LNil; k, val = x.Next(k) {
			var pk any
			pk, err = toPlainDepth(k, path, runtime.MaxPlainDepth, nil)
			if err != nil || pk == nil {
				return nil, notPlain(path, "a key of type "+k.Type().String())
			}
			var pv any
			pv, err = toPlainDepth(val, joinPath(path, pk), depth+1, seen)
			if err != nil {
				return nil, err
			}
			t.Fields = append(t.Fields, runtime.Field{Key: pk, Value: pv})
		}
		return t, nil
	}
	return nil, notPlain(path, "a "+v.Type().String())
}

// enter checks that table x, reached at path and depth, may be copied as
// plain data (not too deep, not a cycle) and returns the tables on the
// path down to it.
func enter(x *lua.LTable, path string, depth int, seen []*lua.LTable) ([]*lua.LTable, error) {
	if depth >= runtime.MaxPlainDepth {
		return nil, notPlain(path, fmt.Sprintf("tables nested deeper than %d", runtime.MaxPlainDepth))
	}
	if slices.Contains(seen, x) {
		return nil, notPlain(path, "a cycle")
	}
	return append(seen, x), nil
}

func notPlain(path, what string) error {
	if path == "" {
		return fmt.Errorf("%w: cannot store %s", runtime.ErrNotPlain, what)
	}
	return fmt.Errorf("%w: %s: cannot store %s", runtime.ErrNotPlain, path, what)
}

func joinPath(path string, key any) string {
	if s, ok := key.(string); ok {
		if path == "" {
			return s
		}
		return path + "." + s
	}
	return fmt.Sprintf("%s[%v]", path, key)
}

// fromPlain builds plain data as a Lua value of state L. Entity handles
// become entity userdata of L.
func (st *state) fromPlain(v any) lua.LValue {
	switch x := v.(type) {
	case nil:
		return lua.LNil
	case bool:
		return lua.LBool(x)
	case float64:
		return lua.LNumber(x)
	case string:
		return lua.LString(x)
	case runtime.Handle:
		return st.entity(x)
	case *runtime.Table:
		t := st.L.CreateTable(0, smallHash)
		for _, f := range x.Fields {
			t.RawSet(st.fromPlain(f.Key), st.fromPlain(f.Value))
		}
		return t
	}
	// Every plain value is one of the above; anything else is a bug in a
	// caller that skipped runtime.Plain.
	panic(fmt.Sprintf("luabind: not plain data: %T", v))
}

// smallHash is the hash-part size hint of the tables the host builds.
// gopher-lua otherwise sizes every hash part for 32 keys; a hint of 8
// keeps a small table in one map group, a fraction of the memory.
const smallHash = 8

// copyTable deep-copies a table of plain-ish Lua data inside one state:
// tables are copied, every other value (functions included) is shared.
// Used for properties, whose defaults must not be shared between
// instances.
func copyTable(L *lua.LState, t *lua.LTable, depth int) *lua.LTable {
	out := L.CreateTable(0, smallHash)
	for k, v := t.Next(lua.LNil); k != lua.LNil; k, v = t.Next(k) {
		if sub, ok := v.(*lua.LTable); ok && depth < runtime.MaxPlainDepth {
			v = copyTable(L, sub, depth+1)
		}
		out.RawSet(k, v)
	}
	return out
}

// isInt reports whether n is a whole number that fits an int.
func isInt(n lua.LNumber) bool {
	f := float64(n)
	return f == math.Trunc(f) && f >= math.MinInt32 && f <= math.MaxInt32
}
