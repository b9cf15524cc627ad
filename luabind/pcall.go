package luabind

import (
	lua "github.com/yuin/gopher-lua"

	"github.com/luahost/luahost/luabind/internal/compile"
	"github.com/luahost/luahost/luabind/internal/gopherx"
	"github.com/luahost/luahost/luabind/internal/laux"
)

// Locals shared with closures across a caught error.
// gopher-lua's pcall breaks the upvalues of the functions still running
// around it (its issue 448): when an error is raised and no error handler
// is set, gopher-lua closes every open upvalue of every frame on the
// stack, not only those of the frames the error unwinds. A closure that
// shares a local with a function outside the pcall then keeps a copy of
// it, and the two drift apart:
//
//	local c
//	local function f() pcall(error, "e") c = 1 end
//	f()
//	print(c) --> nil in gopher-lua, 1 in Lua 5.1
//
// With an error handler set, gopher-lua closes nothing, which leaves the
// upvalues of the unwound frames open over registers that later calls
// reuse. The sandbox's pcall and xpcall therefore always run the function
// with a handler, which closes the upvalues of the unwound frames first
// (Host.closeUnwound), while their registers still hold the locals' last
// values: a closure made inside the failed call keeps them, as in Lua 5.1.
//
// gopher-lua clears its "handler set" flag when any protected call
// returns, so an error raised in an outer pcall after an inner pcall
// returned detached the upvalues of the functions around the outer pcall:
// protectedCall sets the flag back as it was before the call
// (gopherx.SetHandlerSet).

// closeUnwound is pcall's error handler: it closes the upvalues of the
// frames the innermost running protectedCall started, and returns the
// error value as it is.
func (h *Host) closeUnwound(L *lua.LState) int {
	gopherx.CloseUpvalues(L, h.unwinding[len(h.unwinding)-1])
	return 1
}

// unwindingCall is L.PCall of the frame's values from stack index 1 on,
// with the register of index 1 kept on h.unwinding for closeUnwound
// while it runs; it returns that register.
func (h *Host) unwindingCall(L *lua.LState, nargs, nret int, handler *lua.LFunction) (base int, err error) {
	base = gopherx.FrameBase(L)
	h.unwinding = append(h.unwinding, base)
	err = L.PCall(nargs, nret, handler)
	h.unwinding = h.unwinding[:len(h.unwinding)-1]
	return base, err
}

// protectedCall calls the first value of the frame with the nargs values
// after it, protected with handler, and returns true and its results, or
// false and the error value. handler is h.closeUnwound or calls it first.
// On a full call stack it calls nothing and returns false and "stack
// overflow". An error that passes (Host.passing) is raised again as it
// is.
func protectedCall(L *lua.LState, h *Host, nargs int, handler *lua.LFunction) int {
	if stackFull(L) {
		L.SetTop(0)
		L.Push(lua.LFalse)
		L.Push(lua.LString("stack overflow"))
		return 2
	}
	// gopher-lua clears the handler flag when the call returns; an outer
	// protected call needs it set again (gopherx.SetHandlerSet).
	outer := gopherx.HandlerSet(L)
	base, err := h.unwindingCall(L, nargs, lua.MultRet, handler)
	gopherx.SetHandlerSet(L, outer)
	if err == nil {
		L.Insert(lua.LTrue, 1)
		return L.GetTop()
	}
	// The handler closed them, unless the call stack was too full for
	// gopher-lua to call it.
	gopherx.CloseUpvalues(L, base)
	if h.passing(L) {
		// The budget stopped the callback, or a Go panic is pending: the
		// error goes on to the callback's end as it is, past every pcall
		// around. A stop caught would be raised again at the pcall's next
		// instruction, through the hook, which traces the whole stack: in
		// a recursion through pcall, every level traced every level below
		// it, and a stop took seconds (minutes with xpcall's handler).
		panic(err)
	}
	L.SetTop(0)
	L.Push(lua.LFalse)
	L.Push(caughtValue(err))
	return 2
}

// caughtValue is the value a protected call failed with. A call stack so
// full that gopher-lua could not even call the error handler fails with
// gopher-lua's Go panic; it is Lua 5.1's "stack overflow" (without the
// position, which the panic lost).
func caughtValue(err error) lua.LValue {
	if ae, ok := err.(*lua.ApiError); ok && ae.Type == lua.ApiErrorPanic && ae.Object == lua.LString(gopherx.CallStackOverflow) {
		return lua.LString("stack overflow")
	}
	return errorValue(err)
}

// installYield makes the coroutine table co's yield refuse to cross a Go
// call.
func installYield(L *lua.LState, co *lua.LTable) {
	L.Push(L.NewFunctionFromProto(yieldProto))
	L.Push(L.NewFunction(yield))
	L.Call(1, 1)
	wrapper := L.Get(-1).(*lua.LFunction)
	co.RawSetString("yield", wrapper)
	L.Pop(1)
	// Lua 5.1's stack has the Go yield alone.
	laux.MarkTransparent(L, wrapper)
}

// yieldProto makes coroutine.yield a Lua function around the Go one: it
// calls it without a tail call, because gopher-lua loses the caller of a
// Go function that yields from a tail call (return coroutine.yield(x)
// crashes on the next resume).
var yieldProto = compile.Must("=coroutine.yield", `
local yield = ...
local function pass(...) return ... end
return function(...) return pass(yield(...)) end
`)

// yield(...) is coroutine.yield: it suspends the running coroutine,
// unless a Go function (pcall, a metamethod, print's tostring, a sort
// comparator, a gsub callback, a for iterator) is between it and the
// coroutine's resume. gopher-lua cannot suspend those (it would return
// into the Go function with nothing, and crash); Lua 5.1 refuses them
// with the same error as here.
func yield(L *lua.LState) int {
	if L.Parent == nil || !gopherx.Yieldable() {
		L.Error(lua.LString("attempt to yield across metamethod/C-call boundary"), 0)
	}
	return -1
}

// stackCapacity is the most frames a state's call stack holds:
// callStackSize rounded up to whole segments of gopher-lua's stack.
var stackCapacity = gopherx.CallStackCapacity(callStackSize)

// stackFull reports whether L's call stack has no room for another
// frame. No protected call may start then: the first frame does not fit,
// and gopher-lua, cutting the stack back to where the call started, sets
// it to a segment one past its last, which drops the last segment's
// frames; the functions still running in them (the pcall that started
// the call, the Go function that called it) then return their results
// over the registers of other frames.
func stackFull(L *lua.LState) bool { return gopherx.CallDepth(L) >= stackCapacity }
