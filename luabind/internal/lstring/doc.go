// Package lstring provides bounded versions of gopher-lua's string.find,
// string.match, string.gmatch, string.gsub, string.rep and string.format,
// for states that run untrusted scripts.
//
// gopher-lua checks a state's context only between VM instructions, so a Go
// builtin that runs long escapes a callback's time budget: a pathological
// pattern such as string.find(string.rep("a", 50000), ".-.-.-.-.-b"), a
// string.rep("x", 1e10), a string.format("%099999999d", 1) or a gsub that
// multiplies its input. [Register] puts in their place functions that poll
// the context while they match and refuse to build strings longer than
// [Limits.MaxSize].
//
// # Outline
//
//   - [Register] replaces the functions in a state's string table.
//   - [Limits] bounds the size of what they build.
//
// # Semantics
//
// For valid input the functions return what gopher-lua's do (which follow
// Lua 5.1 with a few quirks of their own, kept here: a back-reference to a
// position capture matches the empty string; "x-%a" in a set is no range;
// gsub keeps "%x" in a replacement string as it is; string.match returns
// nothing when there is no match; string.find with an empty pattern returns
// 1, 0). They differ on purpose in these points:
//
//   - Malformed patterns that gopher-lua accepts and never matches raise
//     C Lua's errors: "malformed pattern (ends with '%')", "malformed
//     pattern (missing arguments to '%b')". A back-reference to a capture
//     that is not closed yet raises "invalid capture index" (gopher-lua
//     reads a stale capture, or panics). Errors that gopher-lua reports keep
//     its message, position included ("invalid ')' at 3", "unexpected EOS
//     at 4", "unfinished capture at EOS").
//   - %f[set] is the frontier pattern of C Lua (gopher-lua reads "%f" as a
//     plain "f"); its set is read as any other set.
//   - A pattern may have at most 32 captures ("too many captures"), and at
//     most 200 quantified items nested in one match ("pattern too complex"),
//     as in C Lua 5.2 and later. gopher-lua has neither limit, but it fails
//     with "pattern/input too complex" when a quantifier runs over a million
//     bytes, which these functions do not.
//   - gsub with n <= 0 replaces nothing, as in C Lua.
//   - gmatch returns the iterator alone, which may also be called directly.
//   - find with plain text and an init past the end returns nil (gopher-lua
//     panics), and the iterator of gmatch keeps returning nothing once done.
//   - format rejects what C Lua rejects as too long or repeated, and
//     formatting a table or function with a numeric verb.
//
// All functions raise their errors with [lua.LState.RaiseError], so they
// read "file:line: message" like any Lua error.
package lstring
