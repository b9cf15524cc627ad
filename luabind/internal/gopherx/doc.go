// Package gopherx is the one place where luahost reaches into gopher-lua
// past its exported API: unexported fields read or written through
// reflect and unsafe, Go symbol names of gopher-lua's functions, the
// instruction bit layout, panic strings, estimated object sizes and the
// process-wide array-part limit. No other package of luahost imports
// reflect or unsafe against gopher-lua's types.
//
// Each assumption has a test of its own (gopherx_test.go), and Check
// verifies at run time the ones a different gopher-lua version could
// break silently; luabind.New calls it and refuses to start when one
// fails, naming the assumption and what depends on it. The upgrade
// checklist in docs/architecture.md lists them all.
//
// It imports nothing of luahost.
package gopherx
