package gopherx

// CallStackOverflow is the value gopher-lua panics with, as a Go panic
// and not a Lua error, when a state's call stack is full.
const CallStackOverflow = "lua callstack overflow"
