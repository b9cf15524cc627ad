package luabind

import (
	"reflect"

	lua "github.com/yuin/gopher-lua"

	"github.com/luahost/luahost/luabind/internal/luaerr"
	"github.com/luahost/luahost/luabind/internal/lualib"
)

// newProtect returns the function every protected call of a state goes
// through: protect(fn, ...) calls fn(...) with a panic hook installed that
// rewrites each error raised while fn runs (rewriteError) before the stack
// unwinds. gopher-lua's PCall installs its own hook on entry, hence the
// extra call: st.pcall (callbacks, chunks) and the sandbox's pcall and
// xpcall call through it.
func newProtect(L *lua.LState, onError func(*lua.LState)) *lua.LFunction {
	// The hook is made once per state, not per call: prevs holds the
	// hook each running protect replaced (gopher-lua's PCall's own), the
	// innermost last, and the hook hands the error to the innermost.
	var prevs []func(*lua.LState)
	hook := func(L *lua.LState) {
		rewriteTop(L)
		onError(L)
		luaerr.RaiseTraced(L, prevs[len(prevs)-1])
	}
	hookCode := reflect.ValueOf(hook).Pointer()
	return L.NewFunction(func(L *lua.LState) int {
		if f := L.CheckAny(1); f.Type() != lua.LTFunction && L.GetMetaField(f, "__call").Type() != lua.LTFunction {
			// Raised, as Lua 5.1 raises it, by the call inside pcall or
			// xpcall: no Lua code is running, so no position.
			L.Error(lua.LString("attempt to call a "+f.Type().String()+" value"), 0)
		}
		prev := L.Panic
		if len(prevs) > 0 && reflect.ValueOf(prev).Pointer() == hookCode {
			// Called from Lua inside a protected call, by a script that
			// found protect on the stack (debug.getinfo): the hook is
			// installed already, and handing errors to it would recurse
			// until the Go stack overflows and kills the process.
			prev = prevs[len(prevs)-1]
		}
		prevs = append(prevs, prev)
		L.Panic = hook
		defer func() {
			L.Panic = prevs[len(prevs)-1]
			prevs = prevs[:len(prevs)-1]
		}()
		defer luaerr.OverflowAsError(L)
		L.Call(L.GetTop()-1, lua.MultRet)
		return L.GetTop()
	})
}

// newPCall returns the sandbox's pcall(f, ...): Lua's pcall, with the
// error message worded by protect, and the upvalues of the functions
// around it kept (protectedCall).
func newPCall(h *Host, protect, unwound *lua.LFunction) lua.LGFunction {
	return func(L *lua.LState) int {
		L.CheckAny(1)
		if f := L.Get(1); f.Type() != lua.LTFunction && L.GetMetaField(f, "__call").Type() != lua.LTFunction {
			L.Push(lua.LFalse)
			L.Push(lua.LString("attempt to call a " + f.Type().String() + " value"))
			return 2
		}
		L.Insert(protect, 1)
		return protectedCall(L, h, L.GetTop()-1, unwound)
	}
}

// newXPCall returns the sandbox's xpcall(f, handler): Lua's xpcall, the
// handler getting the message worded by protect. A handler that fails
// makes xpcall return false, "error in error handling", as in Lua 5.1.
func newXPCall(h *Host, protect, unwound *lua.LFunction) lua.LGFunction {
	return func(L *lua.LState) int {
		// As in Lua 5.1, only the handler's presence is checked: a value
		// that is not a function fails when it is called; f's failure
		// goes to the handler, the handler's is "error in error handling".
		handler := L.CheckAny(2)
		fn := L.Get(1)
		L.SetTop(0)
		L.Push(protect)
		L.Push(fn)
		return protectedCall(L, h, 1, L.NewFunction(handled(h, handler, unwound)))
	}
}

// handled returns the Go function that gopher-lua calls as xpcall's
// handler: it closes the unwound frames' upvalues (Host.closeUnwound),
// calls handler with the error value, protected, and returns
// its result, or "error in error handling" when it fails. An error that
// passes (a budget stop, a Go panic) does not run handler, and one raised
// in handler is returned as it is: it passes on (protectedCall).
func handled(h *Host, handler lua.LValue, unwound *lua.LFunction) lua.LGFunction {
	return func(L *lua.LState) int {
		h.closeUnwound(L)
		if h.passing(L) || stackFull(L) {
			return 1
		}
		L.Insert(handler, 1)
		// unwound as the error handler, as pcall's: it closes the
		// upvalues of handler's failed frames (and without a handler,
		// gopher-lua traces the whole stack of every error it catches).
		if _, err := h.unwindingCall(L, L.GetTop()-1, 1, unwound); err != nil {
			if h.passing(L) {
				// Stopped in handler, or a Go panic there: that error,
				// as it was raised.
				L.Push(errorValue(err))
				return 1
			}
			L.Push(lua.LString("error in error handling"))
		}
		return 1
	}
}

// wordResume returns the sandbox's coroutine.resume(co, ...): Lua's, with
// the message of a failed coroutine in reference Lua's words. Errors
// raised in the coroutine's own code name their culprit (hookThread);
// luaWording words what still arrives in gopher-lua's words. A Go panic
// in the coroutine is raised again (gopanic.go).
func wordResume(h *Host, resume *lua.LFunction) lua.LGFunction {
	return func(L *lua.LState) int {
		// Checked here, so that the message names resume: one raised by
		// the wrapped function would name nothing.
		th := lualib.CheckThread(L, 1)
		L.Insert(resume, 1)
		stopped := resumeConsoleThread(th, func() { L.Call(L.GetTop()-1, lua.MultRet) })
		if stopped != "" {
			L.SetTop(0)
			L.Push(lua.LFalse)
			L.Push(lua.LString(stopped))
			return 2
		}
		if L.Get(1) == lua.LFalse && h.goPanic != nil {
			// A Go panic in the coroutine passes its resume.
			L.Error(L.Get(2), 0)
		}
		if msg, ok := L.Get(2).(lua.LString); ok && L.Get(1) == lua.LFalse {
			L.Replace(2, lua.LString(luaerr.LuaWording(string(msg))))
		}
		return L.GetTop()
	}
}

// errorValue returns the Lua value a protected call failed with.
func errorValue(err error) lua.LValue {
	if ae, ok := err.(*lua.ApiError); ok {
		return ae.Object
	}
	return lua.LString(err.Error())
}
