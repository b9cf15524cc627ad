// Package luabind runs Lua scripts on a [runtime.Runtime]: designers' .lua
// files that return a table of callbacks (see docs/lua-api.md).
//
// A [Host] loads scripts from a directory ([Host.Load], [Host.Attach]),
// compiling each source once through a [Chunks] cache that hosts on other
// goroutines may share. Each [Script] runs in its own sandboxed gopher-lua
// state, taken from a pool and shared only by that script's instances;
// [Script] implements runtime.Script, so Lua and Go-native scripts share
// one schedule. [Host.Register] exposes Go functions to scripts.
//
// Every callback runs protected and under a time budget and a memory limit
// ([Options.Budget], [Options.MemoryLimit]); an error faults only its
// instance and is reported as a runtime.ScriptError with file:line. A
// script that does not load is a [LoadError].
//
// [Host.Reload] replaces a script compile-then-swap, migrating every live
// instance's state all-or-nothing (a refusal is a [ReloadError]);
// [Host.Watch] does it for every file saved in the script directory,
// between frames.
package luabind
