package gopherx

import (
	"reflect"
	"sync"
	"unsafe"

	lua "github.com/yuin/gopher-lua"
)

// keysOffset is the offset of LTable's key list, or 0 when it has none
// of the expected type.
var keysOffset = func() uintptr {
	f, ok := reflect.TypeFor[lua.LTable]().FieldByName("keys")
	if !ok || f.Type != reflect.TypeFor[[]lua.LValue]() {
		return 0
	}
	return f.Offset
}()

// TableKeys returns t's key list: its hash keys, removed ones included,
// in the order pairs visits the live ones. gopher-lua never shrinks the
// list: a removed key keeps its slot, and set again it takes that slot.
// nil when the layout is unknown (Check reports it). The slice is t's
// own: read it, never write it.
func TableKeys(t *lua.LTable) []lua.LValue {
	if keysOffset == 0 {
		return nil
	}
	return *(*[]lua.LValue)(unsafe.Add(unsafe.Pointer(t), keysOffset))
}

// arrayOffset is the offset of LTable's array part, or 0 when it has
// none of the expected type.
var arrayOffset = func() uintptr {
	f, ok := reflect.TypeFor[lua.LTable]().FieldByName("array")
	if !ok || f.Type != reflect.TypeFor[[]lua.LValue]() {
		return 0
	}
	return f.Offset
}()

// TableArray returns t's array part: the slice holding its integer keys
// 1 to n (nil where a key has no value), made with the capacity a table
// constructor or CreateTable gave it, or with 32 on the first write to a
// table made without, and grown by append. nil when the layout is unknown
// (Check reports it). The slice is t's own: read it, never write it.
func TableArray(t *lua.LTable) []lua.LValue {
	if arrayOffset == 0 {
		return nil
	}
	return *(*[]lua.LValue)(unsafe.Add(unsafe.Pointer(t), arrayOffset))
}

// ArrayPart is the longest array luahost lets gopher-lua keep in a
// table's slice; longer arrays go on in the hash part.
const ArrayPart = 1 << 18

var limitOnce sync.Once

// LimitArrayPart sets gopher-lua's MaxArrayIndex to ArrayPart+1, once per
// process. gopher-lua keeps integer keys below MaxArrayIndex in a slice
// and fills any gap before a write with nils, in one VM instruction that
// no budget interrupts: with its default (2^26), t[67108863] = true
// allocates a gigabyte. The limit is a package variable of gopher-lua,
// read by every table of every state, so it cannot be set per state:
// luahost sets it when the first Host is made (never at import), and
// docs/embedding.md says what it changes for an embedder's own states.
func LimitArrayPart() {
	limitOnce.Do(func() { lua.MaxArrayIndex = ArrayPart + 1 })
}
