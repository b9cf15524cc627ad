// Package laux holds the small helpers that every Lua-facing package of
// luahost shares, the counterpart of C Lua's lauxlib: reading numbers as
// Lua 5.1 reads them (ToNumber, ToUnsigned), formatting them as it prints
// them (FormatNumber, AppendNumber, ToString), argument checks that
// convert numeric strings and numbers as luaL_check* do (CheckNumber,
// CheckInt, CheckString, CheckTable and their Opt forms, TypeError's "got
// no value"), stack levels counted as lua_getstack counts them (Level,
// MarkTransparent), raising errors with the caller's position (Where,
// Raise), and the border of a table (TableLen, RawGetInt), which knows
// where luahost keeps the elements of long arrays.
//
// It imports nothing of luahost but gopherx, so the compile step, the
// error wording, the string engine and the libraries can all use it.
package laux
