package luabind

import (
	"slices"

	lua "github.com/yuin/gopher-lua"

	"github.com/luahost/luahost/luabind/internal/gopherx"
	"github.com/luahost/luahost/runtime"
)

// Removed keys in a snapshot (docs/snapshot.md). gopher-lua lists a
// table's hash keys with pairs in the order of a key list it never
// shrinks: a removed key keeps its slot, and set again it takes that slot,
// not the end. A table rebuilt from its live keys alone would list such a
// key at the end, and a restored world would part from the one that never
// stopped. So a script's self is saved with its removed keys ("holes": a
// key with a null value, in its place) and rebuilt with them. gopher-lua
// exports no access to the key list; keyList reads it through the
// table's unexported field, found by reflection once. Should a later
// gopher-lua lay its tables out differently, no holes are saved (and
// TestKeyList fails).

// inArrayPart reports whether gopher-lua keeps key k in a table's array
// part (where no removed key keeps a slot) rather than in its hash part.
func inArrayPart(k lua.LValue) bool {
	n, ok := k.(lua.LNumber)
	return ok && n >= 1 && n < lua.LNumber(lua.MaxArrayIndex) && n == lua.LNumber(int64(n))
}

// withHoles returns fields, the plain entries of table x in pairs order
// less those skipped (functions in a self), with x's removed keys put in
// their places as Fields with a nil Value; a skipped key becomes a hole
// too. When x's key list does not match fields, fields is returned as it
// is.
func (c *copier) withHoles(x *lua.LTable, fields []runtime.Field, path string) ([]runtime.Field, error) {
	keys := gopherx.TableKeys(x)
	if len(keys) == 0 {
		return fields, nil
	}
	// pairs lists the array part first, then the key list's live keys.
	arr := 0
	for arr < len(fields) {
		if f, ok := fields[arr].Key.(float64); !ok || !inArrayPart(lua.LNumber(f)) {
			break
		}
		arr++
	}
	out := make([]runtime.Field, arr, len(fields)+4)
	copy(out, fields)
	rest := fields[arr:]
	holes := 0
	for _, k := range keys {
		pk := plainKey(k)
		if len(rest) > 0 && pk == rest[0].Key {
			out, rest = append(out, rest[0]), rest[1:]
			continue
		}
		if v := x.RawGetH(k); pk == nil || v != lua.LNil && !skipped(v) {
			return fields, nil
		}
		if err := c.add(path, size(k)); err != nil {
			return nil, err
		}
		out = append(out, runtime.Field{Key: pk})
		holes++
	}
	if len(rest) > 0 || holes == 0 {
		return fields, nil
	}
	return out, nil
}

// Array holes. Lua 5.1's # of a table with nils among its values depends
// on whether a constructor made it (laux.TableLen): gopher-lua's slice of
// such a table has the length and capacity the constructor gave it, nil
// slots included. A table rebuilt from its values alone would be one
// built by writes, and # could answer otherwise after a restore or a
// handoff than in the world that never stopped. So a snapshot saves a
// constructor's table with a hole in each of its nil slots, and a table
// whose fields begin with the keys 1..n, holes among them, is rebuilt
// with a slice of exactly n slots.

// withArrayHoles returns fields, the plain entries of table x in pairs
// order, with a hole for each nil slot of x's array part when a
// constructor made it (gopherx.TableArray: length and capacity equal);
// fields as it is otherwise, or when its first entries are not x's
// array part.
func (c *copier) withArrayHoles(x *lua.LTable, fields []runtime.Field, path string) ([]runtime.Field, error) {
	arr := gopherx.TableArray(x)
	if len(arr) == 0 || cap(arr) != len(arr) || !slices.Contains(arr, lua.LValue(lua.LNil)) {
		return fields, nil
	}
	out := make([]runtime.Field, 0, len(fields)+len(arr))
	j := 0
	for k, v := range arr {
		if v == lua.LNil {
			if err := c.add(path, 0); err != nil {
				return nil, err
			}
			out = append(out, runtime.Field{Key: float64(k + 1)})
			continue
		}
		if j >= len(fields) || fields[j].Key != float64(k+1) {
			return fields, nil
		}
		out = append(out, fields[j])
		j++
	}
	return append(out, fields[j:]...), nil
}

// newCopyOf returns the empty table a copy of t starts from, in L: with
// t's slots, nil ones included, when a constructor made t, so that # of
// the copy answers as t's (a copy made by the host, in a reload or of
// properties, is t's own value going on); a table with room for a few
// hash keys otherwise.
func newCopyOf(L *lua.LState, t *lua.LTable) *lua.LTable {
	arr := gopherx.TableArray(t)
	if len(arr) == 0 || cap(arr) != len(arr) {
		return L.CreateTable(0, smallHash)
	}
	out := L.CreateTable(len(arr), smallHash)
	for k := range arr {
		out.RawSetInt(k+1, lua.LNil)
	}
	return out
}

// constructorArray returns n when fields begin with the keys 1..n in
// order, a hole among them (a constructor's table, saved by
// withArrayHoles), and 0 otherwise.
func constructorArray(fields []runtime.Field) int {
	n, hole := 0, false
	for _, f := range fields {
		if k, ok := f.Key.(float64); !ok || k != float64(n+1) || !inArrayPart(lua.LNumber(k)) {
			break
		}
		n++
		hole = hole || f.Value == nil
	}
	if !hole {
		return 0
	}
	return n
}

// skipped reports whether a self's value is left out of its plain form
// (functions are code, not data).
func skipped(v lua.LValue) bool {
	_, isFn := v.(*lua.LFunction)
	return isFn
}

// hole gives t a removed key k: a slot in its key list and no value. Keys
// of the array part have no such slot and are left alone.
func hole(t *lua.LTable, k lua.LValue) {
	if k == lua.LNil || inArrayPart(k) {
		return
	}
	t.RawSet(k, lua.LTrue)
	t.RawSet(k, lua.LNil)
}
