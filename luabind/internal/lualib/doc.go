// Package lualib holds the sandbox's Lua standard library: gopher-lua's
// libraries with what a sandbox must not offer removed, and replacements
// for the functions where gopher-lua diverges from reference Lua 5.1 or
// does unbounded work in Go. Open installs it in a fresh state.
//
// One file a library: base.go (the base functions), table.go, math.go
// (random numbers drawn per script), os.go (clock and calendar), debug.go
// (traceback and getinfo), ipairs.go (arrays longer than gopher-lua's
// array part), tostring.go, globals.go (deterministic key order of the
// global and library tables, collectgarbage, the getfenv/setfenv
// guard). The string library's engine is its own package, lstring. A
// function luahost adds to a standard library goes in that library's
// file, registered from its install function; what needs the host (load,
// pcall, print, require, coroutines under the budget) is bound by
// luabind after Open.
//
// Functions raise errors as Lua 5.1 words them, through laux.
package lualib
