package luabind

import (
	lua "github.com/yuin/gopher-lua"

	"github.com/luahost/luahost/runtime"
)

// Go panics in the embedder's code that a script's call reached: a Go
// function registered with Register, a Go observer of an event the
// script emitted or sent, the blackboard's OnSet hook of a key the script
// wrote. The panic is recovered where the script's call entered Go, kept
// as the host's pending panic (goPanic), and raised as a Lua error at the
// script's line ("scripts/x.lua:5: ctx.emit: panic: boom"). No pcall,
// xpcall or coroutine.resume catches it: like a budget stop it passes
// them all (passing), and the callback around it fails with a
// *runtime.ScriptError whose Err is the *runtime.PanicError (the value
// and the Go stack), reported as runtime/panic.go reports the panics of
// Go-native scripts.

// catchPanic runs fn and returns the panic it raised as a
// *runtime.PanicError, with the Go stack, or nil. A Lua error crossing
// fn (a nested callback's) is not the embedder's and goes on.
func catchPanic(fn func()) (pe *runtime.PanicError) {
	defer func() {
		if v := recover(); v != nil {
			pe = asPanic(v)
		}
	}()
	fn()
	return nil
}

// asPanic returns v, just recovered, as a *runtime.PanicError; a Lua
// error is raised on. Call it from the deferred function that recovered.
func asPanic(v any) *runtime.PanicError {
	if _, ok := v.(*lua.ApiError); ok {
		panic(v)
	}
	return runtime.NewPanicError(v)
}

// goPanic makes pe, met by the Lua-facing function what, the running
// callback's pending Go panic and raises it at the script's line.
func (st *state) goPanic(L *lua.LState, what string, pe *runtime.PanicError) {
	st.host.goPanic = pe
	st.raise(L, what+": "+pe.Error(), pe)
}

// passing reports whether an error being caught in L must pass every
// pcall, xpcall and resume on to the callback's end: the budget stopped
// the callback, or a Go panic is pending.
func (h *Host) passing(L *lua.LState) bool {
	if h.goPanic != nil {
		return true
	}
	ctx := L.Context()
	return ctx != nil && ctx.Err() != nil
}

// takePanic returns the pending Go panic, if any, and clears it: the
// callback that failed of it reports it.
func (h *Host) takePanic() *runtime.PanicError {
	pe := h.goPanic
	h.goPanic = nil
	return pe
}
