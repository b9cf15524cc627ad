package lstring

import (
	lua "github.com/yuin/gopher-lua"

	"github.com/luahost/luahost/luabind/internal/laux"
)

// MaxResults is the most values string.byte returns: Lua 5.1's limit of
// its C stack, past which it fails with "string slice too long".
const MaxResults = 8000

// string.byte(s [, i [, j]])
//
// byte returns the codes of s[i] to s[j] (i defaults to 1, j to i;
// negative positions count from the end), as Lua 5.1 does. More than
// MaxResults values raise "stack overflow (string slice too long)" before
// anything is pushed. Cost: one growth of the value stack, then one push
// per byte.
func (lib *library) byte(L *lua.LState) int {
	s := laux.CheckString(L, 1)
	i := posrelat(laux.OptInteger(L, 2, 1), len(s))
	j := posrelat(laux.OptInteger(L, 3, i), len(s))
	i = max(i, 1)
	j = min(j, len(s))
	if i > j {
		return 0
	}
	n := j - i + 1
	if n > MaxResults {
		laux.Raise(L, "stack overflow (string slice too long)")
	}
	base := L.GetTop()
	L.SetTop(base + n)
	for k := range n {
		L.Replace(base+1+k, lua.LNumber(s[i-1+k]))
	}
	return n
}

// posrelat turns a 1-based position, negative from the end of a string of
// length n, into a position from the start (0 when before it).
func posrelat(pos, n int) int {
	if pos < 0 {
		pos += n + 1
	}
	return max(pos, 0)
}

// string.char(...)
//
// char returns the string of the given byte codes; a code outside 0..255
// is an argument error ("invalid value").
func (lib *library) char(L *lua.LState) int {
	top := L.GetTop()
	b := make([]byte, top)
	for i := 1; i <= top; i++ {
		c := laux.CheckInt(L, i)
		if c < 0 || c > 255 {
			L.ArgError(i, "invalid value")
		}
		b[i-1] = byte(c)
	}
	L.Push(lua.LString(b))
	return 1
}

// string.upper(s) returns s with the ASCII letters in upper case; other
// bytes are kept as they are (C's toupper in the "C" locale).
func upper(L *lua.LState) int { return flipCase(L, 'a', 'z') }

// string.lower(s) returns s with the ASCII letters in lower case.
func lower(L *lua.LState) int { return flipCase(L, 'A', 'Z') }

// flipCase returns argument 1 with the case of its bytes from lo to hi
// (ASCII letters of one case) flipped.
func flipCase(L *lua.LState, lo, hi byte) int {
	b := []byte(laux.CheckString(L, 1))
	charge(L, len(b))
	for i, c := range b {
		if c >= lo && c <= hi {
			b[i] = c ^ 0x20
		}
	}
	L.Push(lua.LString(b))
	return 1
}
