// Package luaast walks gopher-lua's syntax tree with Lua's scoping rules.
// The compile step (luabind/internal/compile) and the linter
// (internal/lint) both read chunks through it, so that what counts as a
// local, an upvalue or a global is decided in one place.
//
// A Walker visits every expression of a chunk, function bodies included,
// outermost first (an expression before its operands), and reports the
// reads and writes of names that no enclosing scope declares: the
// globals. A Scope answers what a name refers to at a point of the walk;
// the compile step, which rewrites as it walks, keeps its own Scope as it
// goes.
package luaast
