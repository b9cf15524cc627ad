package luabind

import (
	"fmt"

	lua "github.com/yuin/gopher-lua"

	"github.com/luahost/luahost/luabind/internal/budget"
	"github.com/luahost/luahost/luabind/internal/gopherx"
	"github.com/luahost/luahost/luabind/internal/luaerr"
)

// Calling callbacks without a wrapper. The error mapper
// must see an error while its frame is still on the stack, before the
// stack unwinds: a panic hook (rewriteError) does that for Lua errors,
// and a deferred recover does it for gopher-lua's call-stack overflow, a
// Go panic. gopher-lua's PCall replaces the hook on entry and recovers
// before any caller could, so under PCall both need a Go function between
// PCall and the callback: protect, which costs a second VM entry per
// callback (about half the cost of the spinner's onUpdate). PCall's error
// handler is no way out either: it needs one more frame, which a full
// call stack does not have.
//
// So callbacks are called directly: the hook is installed for the call,
// L.Call runs the callback, and a deferred recover catches what it
// raised, with the stack still there. What PCall would then do — cut the
// call stack back to where the call started and reset the current frame
// — gopher-lua exports no function for; callStack does it through the
// state's unexported call stack, found by reflection once per state.
// Should a later gopher-lua lay the state out differently, newCallStack
// returns nil and callbacks go through protect and PCall as before.

// depth returns how many frames the state's call stack holds (stackFull).
func (st *state) depth() int {
	if st.stack != nil {
		return st.stack.Depth()
	}
	return gopherx.CallDepth(st.L)
}

// call calls the function below nargs arguments on the stack with the
// state's hook installed, and returns what it raised as an
// *lua.ApiError, with the call stack and the value stack as they were
// before the call (what PCall does, without its wrapper). sp is the call
// stack's depth now. straight runs the function's own instructions
// through the plain loop: the caller charged them (straightCall).
func (st *state) call(nargs, nret, sp int, straight bool) (err error) {
	L := st.L
	base := L.GetTop() - nargs - 1
	prev := L.Panic
	L.Panic = st.hook
	defer func() {
		if r := recover(); r != nil {
			err = st.caught(r)
			st.stack.Cut(sp)
			L.SetTop(base)
		}
		L.Panic = prev
	}()
	if straight {
		st.straight.Call(nargs, nret)
	} else {
		L.Call(nargs, nret)
	}
	return nil
}

// straightCall reports whether the callback below nargs arguments on the
// stack, about to run under b (armed), is straight-line code whose
// length b has just been charged (straightLenOf): it may then run
// without the budget's look before each instruction.
func (st *state) straightCall(b *budget.Budget, nargs int) bool {
	if b == nil {
		return false
	}
	fn, ok := st.L.Get(-nargs - 1).(*lua.LFunction)
	if !ok {
		return false
	}
	n := st.straightLenOf(fn)
	return n > 0 && b.Straight(n)
}

// caught turns what a direct call recovered into the error PCall would
// have returned, while the stack is still there: a call-stack overflow
// becomes Lua's "stack overflow" at the line that overflowed, with its
// traceback.
func (st *state) caught(r any) (err *lua.ApiError) {
	if ae, ok := r.(*lua.ApiError); ok {
		return ae
	}
	if r != gopherx.CallStackOverflow {
		return &lua.ApiError{Type: lua.ApiErrorPanic, Object: lua.LString(fmt.Sprint(r)), StackTrace: st.trace()}
	}
	defer func() {
		if ae, ok := recover().(*lua.ApiError); ok {
			err = ae
		}
	}()
	// Raised through st.hook, which adds the traceback.
	st.L.RaiseError("stack overflow")
	return nil
}

// trace returns the traceback of the state's stack now, as gopher-lua
// writes it.
func (st *state) trace() (trace string) {
	if trace = luaerr.DeepTrace(st.L); trace != "" {
		return trace
	}
	defer func() {
		if ae, ok := recover().(*lua.ApiError); ok {
			trace = ae.StackTrace
		}
	}()
	st.L.Push(lua.LNil)
	st.traced(st.L)
	return ""
}

// newHook returns the panic hook of direct calls: it rewrites the error
// being raised (rewriteError) and raises it with its traceback, through
// traced, the hook a fresh state has (gopher-lua's, which adds the
// traceback), or on a deep stack through raiseTraced's own.
func newHook(traced, onError func(*lua.LState)) func(*lua.LState) {
	return func(L *lua.LState) {
		rewriteTop(L)
		onError(L)
		luaerr.RaiseTraced(L, traced)
	}
}

// rewriteTop rewrites the error message on top of L's stack, being
// raised now (rewriteError).
func rewriteTop(L *lua.LState) {
	if msg, ok := L.Get(-1).(lua.LString); ok {
		if m := luaerr.RewriteError(L, string(msg)); m != string(msg) {
			L.Pop(1)
			L.Push(lua.LString(m))
		}
	}
}
