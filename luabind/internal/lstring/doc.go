// Package lstring provides bounded versions of Lua 5.1's string.find,
// string.match, string.gmatch, string.gsub, string.rep, string.format,
// string.byte, string.char, string.upper and string.lower, for gopher-lua
// states that run untrusted scripts.
//
// gopher-lua checks a state's context only between VM instructions, so a Go
// builtin that runs long escapes a callback's work budget: a pathological
// pattern such as string.find(string.rep("a", 50000), ".-.-.-.-.-b"), a
// string.rep("x", 1e10), a string.format("%099999999d", 1) or a gsub that
// multiplies its input. [Register] puts in their place functions that
// charge their work to the state's work budget (package budget: the steps
// of a match, the bytes built) and poll it while they match, and refuse to
// build strings longer than [Limits.MaxSize].
//
// # Outline
//
//   - [Register] replaces the functions in a state's string table.
//   - [Limits] bounds the size of what they build.
//   - [ToNumber] and [ToUnsigned] read numbers in strings as Lua 5.1 does
//     (C's strtod and strtoul), for tonumber and for the arguments of
//     these functions.
//
// # Semantics
//
// The functions follow reference Lua 5.1 (TestReferenceMatrix and
// TestCompareCases compare them with Debian's lua5.1), where gopher-lua's
// differ: string.match returns nil when nothing matches; find and match
// clamp init to the subject (string.find("abc", "", 10) is 4, 3); a
// pattern without magic characters is plain text; gmatch reads a leading
// '^' as a plain character; sets are read left to right as C Lua reads
// them ("[%a-z]" holds '-' and 'z'); a back-reference to a position
// capture never matches; gsub accepts a number as replacement, reads "%x"
// in a replacement as "x", refuses replacement values that are not
// strings or numbers and always returns a string; format is C's printf
// with Lua 5.1's checks (no Go verbs); byte and char check their ranges;
// upper and lower change ASCII letters only. They differ from C Lua on
// purpose in these points:
//
//   - A malformed pattern is reported when the function is called, also by
//     gmatch (C Lua reports it at the first iteration, and some only when
//     its matcher reaches them: string.gsub("ab", "(", "x") runs there),
//     in C Lua's words ("invalid pattern capture", "unfinished capture").
//   - A pattern is a Go string: a NUL byte in it is a character, where C
//     Lua stops reading the pattern (write %z either way).
//   - At most 200 quantified items may nest in one match ("pattern too
//     complex"), as in C Lua 5.2 and later.
//   - gmatch returns the iterator alone, which may also be called directly.
//   - byte returns at most [MaxResults] values, as C Lua's stack allows.
//
// All functions raise their errors as Lua 5.1's luaL_error does: with the
// position of the calling function when that is Lua code
// ("file:line: message"), without one when it is Go (pcall(string.rep)).
package lstring
