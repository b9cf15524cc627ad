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
