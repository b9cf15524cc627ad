package gopherx

import (
	"reflect"
	"unsafe"

	lua "github.com/yuin/gopher-lua"
)

// recordLayout holds the offsets of LTable's string-key parts, or ok
// false when they are not of the expected types.
var recordLayout = func() (l struct {
	strdict, keys, k2i uintptr
	ok                 bool
}) {
	ty := reflect.TypeFor[lua.LTable]()
	for _, f := range []struct {
		name string
		want reflect.Type
		off  *uintptr
	}{
		{"strdict", reflect.TypeFor[map[string]lua.LValue](), &l.strdict},
		{"keys", reflect.TypeFor[[]lua.LValue](), &l.keys},
		{"k2i", reflect.TypeFor[map[lua.LValue]int](), &l.k2i},
	} {
		sf, ok := ty.FieldByName(f.name)
		if !ok || sf.Type != f.want {
			return l
		}
		*f.off = sf.Offset
	}
	l.ok = true
	return l
}()

// NewRecord returns a table with the string keys names[i] set to
// values[i] (none nil) and metatable mt, as RawSetString in that order
// would leave it, in four allocations instead of RawSetString's one or
// two per key: keys holds names boxed as LStrings once, by the caller,
// and is copied, never kept. When the layout is unknown (Check reports
// it) the table is built with RawSetString.
func NewRecord(names []string, keys, values []lua.LValue, mt lua.LValue) *lua.LTable {
	return NewRecordRoom(names, keys, values, mt, 0)
}

// NewRecordRoom is NewRecord with room in the key list for room more
// keys, so that as many keys set later grow nothing.
func NewRecordRoom(names []string, keys, values []lua.LValue, mt lua.LValue, room int) *lua.LTable {
	t := &lua.LTable{Metatable: mt}
	if !recordLayout.ok {
		for i, name := range names {
			t.RawSetString(name, values[i])
		}
		return t
	}
	strdict := make(map[string]lua.LValue, len(names))
	k2i := make(map[lua.LValue]int, len(names))
	for i, name := range names {
		strdict[name] = values[i]
		k2i[keys[i]] = i
	}
	p := unsafe.Pointer(t)
	*(*map[string]lua.LValue)(unsafe.Add(p, recordLayout.strdict)) = strdict
	*(*[]lua.LValue)(unsafe.Add(p, recordLayout.keys)) = append(make([]lua.LValue, 0, len(keys)+room), keys...)
	*(*map[lua.LValue]int)(unsafe.Add(p, recordLayout.k2i)) = k2i
	return t
}

// ShareKeys gives the string keys of t's hash part the boxes share
// returns for them (share gets each key and the box t holds), in its key
// list and its key index: gopher-lua boxes a key when a table first
// gets it, so tables of one shape hold a box each, scattered among what
// was allocated between them, and every write of a field compares its key
// with the box. The keys are equal, so nothing but memory changes. When
// the layout is unknown (Check reports it), it does nothing.
func ShareKeys(t *lua.LTable, share func(lua.LString, lua.LValue) lua.LValue) {
	if !recordLayout.ok {
		return
	}
	p := unsafe.Pointer(t)
	keys := *(*[]lua.LValue)(unsafe.Add(p, recordLayout.keys))
	k2i := *(*map[lua.LValue]int)(unsafe.Add(p, recordLayout.k2i))
	if k2i == nil {
		return
	}
	for i, k := range keys {
		s, ok := k.(lua.LString)
		if !ok {
			continue
		}
		c := share(s, k)
		keys[i] = c
		delete(k2i, k)
		k2i[c] = i
	}
}

// TableNext returns the key after k in t and its value (nil, nil after
// the last), as next does: the array part in order, then the hash part in
// the order of its key list. ok is false when t does not hold k: a key of
// the hash part whose value was set to nil since keeps its place, as Lua
// 5.1 keeps a dead key, and is held. It costs what gopher-lua's
// LTable.Next does, which goes on from the second key of the hash part
// for a key it does not hold. When the layout is unknown (Check reports
// it), it is LTable.Next.
func TableNext(t *lua.LTable, k lua.LValue) (key, value lua.LValue, ok bool) {
	if !recordLayout.ok || arrayOffset == 0 {
		key, value = t.Next(k)
		return key, value, true
	}
	arr := TableArray(t)
	from := 0
	if k != lua.LNil {
		n, isNum := k.(lua.LNumber)
		i := int(n)
		if !isNum || lua.LNumber(i) != n || i < 1 || i > len(arr) {
			return hashNext(t, k)
		}
		from = i
	}
	for i := from; i < len(arr); i++ {
		if v := arr[i]; v != lua.LNil {
			return lua.LNumber(i + 1), v, true
		}
	}
	return liveKey(t, 0)
}

// hashNext is TableNext of k, a key of t's hash part.
func hashNext(t *lua.LTable, k lua.LValue) (key, value lua.LValue, ok bool) {
	i, ok := (*(*map[lua.LValue]int)(unsafe.Add(unsafe.Pointer(t), recordLayout.k2i)))[k]
	if !ok {
		return lua.LNil, lua.LNil, false
	}
	return liveKey(t, i+1)
}

// liveKey returns the first key of t's key list from index from on whose
// value is not nil, and its value.
func liveKey(t *lua.LTable, from int) (key, value lua.LValue, ok bool) {
	keys := *(*[]lua.LValue)(unsafe.Add(unsafe.Pointer(t), recordLayout.keys))
	for i := from; i < len(keys); i++ {
		if v := t.RawGetH(keys[i]); v != lua.LNil {
			return keys[i], v, true
		}
	}
	return lua.LNil, lua.LNil, true
}
