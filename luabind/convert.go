package luabind

import (
	"fmt"
	"math"
	"slices"

	lua "github.com/yuin/gopher-lua"

	"github.com/luahost/luahost/luabind/internal/budget"
	"github.com/luahost/luahost/luabind/internal/gopherx"
	"github.com/luahost/luahost/runtime"
)

// Values cross Lua states as plain data: nil, booleans,
// numbers, strings, entity handles, vectors (runtime.Vec3), and tables of
// those. A Lua value is
// turned into its runtime form (toPlain) in one state and built again
// (fromPlain) in another, so no state ever holds another's values.

// toPlain copies a Lua value out as plain data, for a callback of st.
// path names the value in error messages ("loot.items[2]"); the error
// wraps runtime.ErrNotPlain. The copy is bounded (copier) and stops when
// the callback's clock runs out.
func (st *state) toPlain(v lua.LValue, path string) (any, error) {
	c := copier{stop: st.host.budget}
	return c.toPlain(v, path, 0, nil)
}

// copier bounds one copy of plain data: it counts
// every key and value it copies against runtime.MaxPlainNodes and
// runtime.MaxPlainBytes, so that a table shared at many places (a DAG,
// whose paths are exponential in its depth) is an error after a bounded
// walk, and it stops when the running callback's clock runs out, since
// Go code is not interrupted by the VM's budget check.
type copier struct {
	count runtime.PlainCount
	stop  *budget.Budget
	// holes keeps the tables' removed keys (see withHoles) and the nil
	// slots of constructors' tables (withArrayHoles): for a snapshot's
	// self.
	holes bool
}

// add counts one value of n string bytes at path.
func (c *copier) add(path string, n int) error {
	if err := c.count.Add(path, n); err != nil {
		return err
	}
	if c.count.Nodes&1023 == 0 && c.stop != nil && c.stop.Charge(1024*copyWork) {
		return errStopped
	}
	return nil
}

// size is the string bytes a value adds to a copy.
func size(v lua.LValue) int {
	if s, ok := v.(lua.LString); ok {
		return len(s)
	}
	return 0
}

func (c *copier) toPlain(v lua.LValue, path string, depth int, seen []*lua.LTable) (any, error) {
	if err := c.add(path, size(v)); err != nil {
		return nil, err
	}
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
		if isVec(x) {
			if v, ok := vecOf(x); ok {
				return v, nil
			}
			return nil, notPlain(path, "a vec3 whose x, y or z is not a number")
		}
		seen, err := enter(x, path, depth, seen)
		if err != nil {
			return nil, err
		}
		t := &runtime.Table{}
		for k, val := x.Next(lua.LNil); k != lua.LNil; k, val = x.Next(k) {
			if err = c.add(path, size(k)); err != nil {
				return nil, err
			}
			pk := plainKey(k)
			if pk == nil {
				return nil, notPlain(path, "a key of type "+k.Type().String())
			}
			var pv any
			pv, err = c.toPlain(val, joinPath(path, pk), depth+1, seen)
			if err != nil {
				return nil, err
			}
			t.Fields = append(t.Fields, runtime.Field{Key: pk, Value: pv})
		}
		if c.holes {
			if t.Fields, err = c.withArrayHoles(x, t.Fields, path); err != nil {
				return nil, err
			}
			if t.Fields, err = c.withHoles(x, t.Fields, path); err != nil {
				return nil, err
			}
		}
		return t, nil
	}
	return nil, notPlain(path, "a "+v.Type().String())
}

// plainKey returns the plain form of a table key: a boolean, a number, a
// string or an entity handle; nil for any other key.
func plainKey(k lua.LValue) any {
	switch x := k.(type) {
	case lua.LBool:
		return bool(x)
	case lua.LNumber:
		return float64(x)
	case lua.LString:
		return string(x)
	case *lua.LUserData:
		if h, ok := x.Value.(runtime.Handle); ok {
			return h
		}
	}
	return nil
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
	case runtime.Vec3:
		return st.newVec(x)
	case *runtime.Table:
		n := constructorArray(x.Fields)
		t := st.L.CreateTable(n, smallHash)
		for k := 1; k <= n; k++ {
			v := lua.LValue(lua.LNil)
			if val := x.Fields[k-1].Value; val != nil {
				v = st.fromPlain(val)
			}
			t.RawSetInt(k, v)
		}
		for _, f := range x.Fields[n:] {
			if f.Value == nil {
				hole(t, st.fromPlain(f.Key))
				continue
			}
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
// instances. A table of string keys alone, the usual properties, is built
// in one go (gopherx.NewRecordRoom) with the source's boxed keys, and the
// copy of a whole table (a self) has room for one key more: an onCreate
// usually sets one of its own.
func copyTable(L *lua.LState, t *lua.LTable, depth int) *lua.LTable {
	if !isRecord(t) {
		out := newCopyOf(L, t)
		for k, v := t.Next(lua.LNil); k != lua.LNil; k, v = t.Next(k) {
			out.RawSet(k, copyValue(L, v, depth))
		}
		return out
	}
	var nbuf [smallHash]string
	var kbuf, vbuf [smallHash]lua.LValue
	names, keys, values := nbuf[:0], kbuf[:0], vbuf[:0]
	for k, v := t.Next(lua.LNil); k != lua.LNil; k, v = t.Next(k) {
		names = append(names, string(k.(lua.LString)))
		keys = append(keys, k)
		values = append(values, copyValue(L, v, depth))
	}
	if len(keys) == 0 {
		return newCopyOf(L, t)
	}
	room := 0
	if depth == 0 {
		room = 1
	}
	return gopherx.NewRecordRoom(names, keys, values, lua.LNil, room)
}

// copyValue is v as copyTable copies it into a table at depth: a table
// (short of runtime.MaxPlainDepth) is copied, a vector staying one.
func copyValue(L *lua.LState, v lua.LValue, depth int) lua.LValue {
	sub, ok := v.(*lua.LTable)
	if !ok || depth >= runtime.MaxPlainDepth {
		return v
	}
	c := copyTable(L, sub, depth+1)
	if isVec(sub) {
		c.Metatable = sub.Metatable
	}
	return c
}

// isRecord reports whether t has keys, all of them strings: no array
// part, and no other key in its key list (removed ones included).
func isRecord(t *lua.LTable) bool {
	keys := gopherx.TableKeys(t)
	if len(keys) == 0 || len(gopherx.TableArray(t)) > 0 {
		return false
	}
	for _, k := range keys {
		if _, ok := k.(lua.LString); !ok {
			return false
		}
	}
	return true
}

// isInt reports whether n is a whole number that fits an int.
func isInt(n lua.LNumber) bool {
	f := float64(n)
	return f == math.Trunc(f) && f >= math.MinInt32 && f <= math.MaxInt32
}
