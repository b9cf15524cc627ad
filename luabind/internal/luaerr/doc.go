// Package luaerr words the errors of scripts as a designer reads them:
// reference Lua's wording in place of gopher-lua's, the culprit named
// from the bytecode ("attempt to index a nil value (local 'boss')"),
// argument errors counted as Lua counts them, bounded messages and short
// tracebacks, and the report of a callback stopped by a limit
// (Overrun). It reads only what a state shows through gopher-lua's API
// and the instructions of its prototypes; it keeps no Lua value.
package luaerr
