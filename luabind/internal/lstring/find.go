package lstring

import (
	"strings"

	lua "github.com/yuin/gopher-lua"
)

// checkPattern compiles the pattern p or raises its error.
func checkPattern(L *lua.LState, p string) *pattern {
	pat, err := compile(p)
	if err != nil {
		L.RaiseError("%s", err.Error())
	}
	return pat
}

// string.find(s, pattern [, init [, plain]])
//
// find returns the start and end (1-based, inclusive) of the first match of
// pattern in s at or after init, then the pattern's captures; or nil. A
// negative init counts from the end of s. With exactly four arguments and a
// true plain it looks for pattern as plain text. As in gopher-lua, an empty
// pattern yields 1, 0 whatever init is, and plain is ignored unless it is the
// last argument. Cost: a plain search is linear; a pattern search may
// backtrack, and stops with the state's context.
func (lib *library) find(L *lua.LState) int {
	s := L.CheckString(1)
	p := L.CheckString(2)
	if p == "" {
		L.Push(lua.LNumber(1))
		L.Push(lua.LNumber(0))
		return 2
	}
	init := startOffset(len(s), L.OptInt(3, 1))
	if L.GetTop() == 4 && lua.LVAsBool(L.Get(4)) {
		if init > len(s) {
			L.Push(lua.LNil)
			return 1
		}
		k := strings.Index(s[init:], p)
		if k < 0 {
			L.Push(lua.LNil)
			return 1
		}
		L.Push(lua.LNumber(init + k + 1))
		L.Push(lua.LNumber(init + k + len(p)))
		return 2
	}

	pat := checkPattern(L, p)
	var m matcher
	m.reset(L, pat, s)
	start, end := m.search(init)
	if start < 0 {
		L.Push(lua.LNil)
		return 1
	}
	L.Push(lua.LNumber(start + 1))
	L.Push(lua.LNumber(end))
	return 2 + m.pushCaptures(start, end, false)
}

// startOffset turns find's 1-based init, negative from the end, into a
// 0-based offset into a string of length n; it may be past the end.
func startOffset(n, init int) int {
	if init != 0 {
		init--
	}
	if init < 0 {
		init += n + 1
	}
	return max(init, 0)
}

// string.match(s, pattern [, init])
//
// match returns the captures of the first match of pattern in s at or after
// init, or the whole match when the pattern has no captures. When nothing
// matches it returns no value at all, as gopher-lua does (C Lua returns
// nil). Cost: as find.
func (lib *library) match(L *lua.LState) int {
	s := L.CheckString(1)
	p := L.CheckString(2)
	init := L.OptInt(3, 1)
	if init < 0 {
		init += len(s) + 1
	}
	init = max(init-1, 0)

	pat := checkPattern(L, p)
	var m matcher
	m.reset(L, pat, s)
	start, end := m.search(init)
	if start < 0 {
		return 0
	}
	return m.pushCaptures(start, end, true)
}

// string.gmatch(s, pattern)
//
// gmatch returns an iterator function that yields, call after call, the
// captures (or the whole text) of each successive match of pattern in s, and
// nothing once there are no more. After an empty match the next search
// starts one byte further on. A pattern anchored with '^' matches at most
// once, at the start of s, as in gopher-lua. The pattern is checked at once;
// the matching is done lazily, a match per call, each under the context of
// the state that calls the iterator.
//
// gopher-lua returns the iterator with a second value, a userdata state,
// and its iterator fails unless it gets that state back as its first
// argument (as a generic for passes it); this one returns the iterator alone
// and ignores its arguments, as C Lua does.
func (lib *library) gmatch(L *lua.LState) int {
	s := L.CheckString(1)
	p := L.CheckString(2)
	pat := checkPattern(L, p)
	next := 0 // where the next search begins; past len(s) when done
	L.Push(L.NewFunction(func(L *lua.LState) int {
		if next > len(s) {
			return 0
		}
		var m matcher
		m.reset(L, pat, s)
		start, end := m.search(next)
		switch {
		case start < 0 || pat.anchored:
			next = len(s) + 1
		case end > start:
			next = end
		default:
			next = start + 1
		}
		if start < 0 {
			return 0
		}
		return m.pushCaptures(start, end, true)
	}))
	return 1
}
