package gopherx

import (
	"errors"
	"reflect"
	"sync"
	"unsafe"

	lua "github.com/yuin/gopher-lua"
)

// gopher-lua's PCall sets the state's "error handler set" flag while it
// runs with a handler and clears it when it returns, whatever was set
// before: after an inner protected call returned, an error raised in an
// outer one found the flag clear and closed every open upvalue of the
// state, detaching the locals of the functions around the outer call from
// their closures. The sandbox's pcall puts the flag back as it was.

// handlerOffset is the offset of LState's hasErrorFunc, found once.
var handlerOffset = sync.OnceValues(func() (uintptr, error) {
	f, ok := reflect.TypeFor[lua.LState]().FieldByName("hasErrorFunc")
	if !ok || f.Type.Kind() != reflect.Bool {
		return 0, errors.New("not found")
	}
	return f.Offset, nil
})

// HandlerSet reports whether L runs inside a protected call with an error
// handler, as gopher-lua records it (false when its layout is unknown).
func HandlerSet(L *lua.LState) bool {
	off, err := handlerOffset()
	if err != nil {
		return false
	}
	return *(*bool)(unsafe.Add(unsafe.Pointer(L), off))
}

// SetHandlerSet sets what HandlerSet reports (nothing when gopher-lua's
// layout is unknown).
func SetHandlerSet(L *lua.LState, set bool) {
	if off, err := handlerOffset(); err == nil {
		*(*bool)(unsafe.Add(unsafe.Pointer(L), off)) = set
	}
}

func checkHandler() error {
	if _, err := handlerOffset(); err != nil {
		return err
	}
	L := lua.NewState(lua.Options{SkipOpenLibs: true})
	defer L.Close()
	var inside bool
	L.Push(L.NewFunction(func(L *lua.LState) int {
		inside = HandlerSet(L)
		return 0
	}))
	if err := L.PCall(0, 0, L.NewFunction(func(*lua.LState) int { return 1 })); err != nil {
		return err
	}
	if !inside || HandlerSet(L) {
		return errors.New("PCall with a handler does not set it while it runs")
	}
	return nil
}
