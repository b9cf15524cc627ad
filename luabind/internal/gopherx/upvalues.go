package gopherx

import (
	"errors"
	"reflect"
	"sync"
	"unsafe"

	lua "github.com/yuin/gopher-lua"
)

// Lua 5.1 closes the open upvalues of the frames an error unwinds when a
// protected call catches it: a closure made inside the failed call keeps
// the last values of that call's locals. gopher-lua closes every open
// upvalue of the state when no error handler is set (detaching the locals
// of the functions still running around the call), and none when one is
// (leaving the unwound frames' upvalues open over registers that later
// calls reuse); it offers no way to close some. FrameBase and
// CloseUpvalues let the sandbox's pcall close exactly the unwound ones,
// from its error handler, before gopher-lua empties their registers.

// upvalueLayout holds the offsets, found once by reflection, of LState's
// list of open upvalues, of an upvalue's link and register index in it,
// and of a call frame's first register.
type upvalueLayout struct {
	cache, next, index, frame, localBase uintptr
}

var upvalueOffsets = sync.OnceValues(func() (upvalueLayout, error) {
	var o upvalueLayout
	st := reflect.TypeFor[lua.LState]()
	uv := reflect.TypeFor[lua.Upvalue]()
	cache, ok := st.FieldByName("uvcache")
	if !ok || cache.Type != reflect.PointerTo(uv) {
		return o, errors.New("no list of open upvalues")
	}
	next, ok := uv.FieldByName("next")
	if !ok || next.Type != reflect.PointerTo(uv) {
		return o, errors.New("no link between open upvalues")
	}
	index, ok := uv.FieldByName("index")
	if !ok || index.Type.Kind() != reflect.Int {
		return o, errors.New("no register index in an upvalue")
	}
	cur, ok := st.FieldByName("currentFrame")
	if !ok || cur.Type.Kind() != reflect.Pointer || cur.Type.Elem().Kind() != reflect.Struct {
		return o, errors.New("no current frame")
	}
	base, ok := cur.Type.Elem().FieldByName("LocalBase")
	if !ok || base.Type.Kind() != reflect.Int || len(base.Index) != 1 {
		return o, errors.New("no first register in a frame")
	}
	return upvalueLayout{cache.Offset, next.Offset, index.Offset, cur.Offset, base.Offset}, nil
})

// FrameBase returns the register, counted from the bottom of L's
// registers, that holds the first argument of the Go function L is
// running (its stack index 1), or -1 when gopher-lua's layout is unknown.
func FrameBase(L *lua.LState) int {
	o, err := upvalueOffsets()
	if err != nil {
		return -1
	}
	cur := *(*unsafe.Pointer)(unsafe.Add(unsafe.Pointer(L), o.frame))
	if cur == nil {
		return -1
	}
	return *(*int)(unsafe.Add(cur, o.localBase))
}

// CloseUpvalues closes every open upvalue of L over a register at from or
// above (a FrameBase), as a Lua function's return closes its own: each
// keeps the value its register holds now, and the closures sharing it
// keep sharing it. Nothing happens when from is negative.
func CloseUpvalues(L *lua.LState, from int) {
	o, err := upvalueOffsets()
	if err != nil || from < 0 {
		return
	}
	// gopher-lua keeps the list in increasing register order.
	link := (**lua.Upvalue)(unsafe.Add(unsafe.Pointer(L), o.cache))
	for *link != nil && *(*int)(unsafe.Add(unsafe.Pointer(*link), o.index)) < from {
		link = (**lua.Upvalue)(unsafe.Add(unsafe.Pointer(*link), o.next))
	}
	uv := *link
	*link = nil
	for uv != nil {
		uv.Close()
		if uv.Value() == nil {
			// A register gopher-lua has emptied holds Go's nil.
			uv.SetValue(lua.LNil)
		}
		uv = *(**lua.Upvalue)(unsafe.Add(unsafe.Pointer(uv), o.next))
	}
}

func checkUpvalues() error {
	if _, err := upvalueOffsets(); err != nil {
		return err
	}
	// Two closures over a local each of two nested functions: closing
	// from the inner function's first register must close the inner
	// local only, keeping its value.
	var got []lua.LValue
	err := probe(`
		local outer = "o"
		local getOuter = function() return outer end
		local getInner
		local function inner(v)
			local x = v
			getInner = function() return x end
			probe()
			x = "changed"
		end
		inner("kept")
		outer = "o2"
		probe(getInner(), getOuter())
	`, func(L *lua.LState) int {
		if L.GetTop() == 0 {
			// Called by inner: probe's first register is three above
			// inner's first (v, x, probe's slot).
			CloseUpvalues(L, FrameBase(L)-3)
			return 0
		}
		got = append(got, L.Get(1), L.Get(2))
		return 0
	})
	if err != nil {
		return err
	}
	if len(got) != 2 || got[0] != lua.LString("kept") || got[1] != lua.LString("o2") {
		return errors.New("closing a frame's upvalues closes others, or loses values")
	}
	return nil
}
