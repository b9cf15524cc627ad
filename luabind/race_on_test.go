//go:build race

package luabind

// raceSlowdown is how much slower Lua runs under the race detector: a
// work budget stops a callback after the same work, which takes that
// much longer by the clock.
const raceSlowdown = 5
