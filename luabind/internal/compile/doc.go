// Package compile turns a chunk's source into a function prototype that
// behaves as reference Lua 5.1 does: a syntax check first (CheckSyntax,
// Lua 5.1's messages, bounded nesting), then gopher-lua's parser, the
// lines reference Lua reports (fixLines), Lua 5.1's limits of locals and
// upvalues (limits.go), a rewrite of the syntax tree where gopher-lua's
// compiler diverges, a bound of that compiler's work on constants, and
// gopher-lua's compiler.
// Compile is the entry point; IsName holds the one list of reserved
// words.
package compile
