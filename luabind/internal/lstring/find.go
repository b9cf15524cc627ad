package lstring

import (
	"strings"

	lua "github.com/yuin/gopher-lua"

	"github.com/luahost/luahost/luabind/internal/laux"
)

// checkPattern compiles the pattern p or raises its error.
func checkPattern(L *lua.LState, p string) *pattern {
	pat, err := compile(p)
	if err != nil {
		laux.Raise(L, err.Error())
	}
	return pat
}

// string.find(s, pattern [, init [, plain]])
//
// find returns the start and end (1-based, inclusive) of the first match of
// pattern in s at or after init, then the pattern's captures; or nil. A
// negative init counts from the end of s, and init is clamped to the
// string (so an empty pattern is found at its end, as in Lua 5.1). With a
// true plain, or a pattern without magic characters, it looks for pattern
// as plain text. Cost: a plain search is linear; a pattern search may
// backtrack, and stops with the state's context.
func (lib *library) find(L *lua.LState) int {
	s := laux.CheckString(L, 1)
	p := laux.CheckString(L, 2)
	init := findInit(L, len(s))
	if lua.LVAsBool(L.Get(4)) || !strings.ContainsAny(p, specials) {
		charge(L, len(s)-init)
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

// specials are the bytes that make a pattern more than plain text.
const specials = "^$*+?.([%-"

// findInit returns argument 3 of find and match (init, default 1,
// negative from the end) as a 0-based offset clamped to [0, n].
func findInit(L *lua.LState, n int) int {
	return min(max(posrelat(laux.OptInteger(L, 3, 1), n)-1, 0), n)
}

// string.match(s, pattern [, init])
//
// match returns the captures of the first match of pattern in s at or after
// init (as find's), or the whole match when the pattern has no captures.
// When nothing matches it returns nil. Cost: as find.
func (lib *library) match(L *lua.LState) int {
	s := laux.CheckString(L, 1)
	p := laux.CheckString(L, 2)
	init := findInit(L, len(s))

	pat := checkPattern(L, p)
	var m matcher
	m.reset(L, pat, s)
	start, end := m.search(init)
	if start < 0 {
		L.Push(lua.LNil)
		return 1
	}
	return m.pushCaptures(start, end, true)
}

// string.gmatch(s, pattern)
//
// gmatch returns an iterator function that yields, call after call, the
// captures (or the whole text) of each successive match of pattern in s, and
// nothing once there are no more. After an empty match the next search
// starts one byte further on. A leading '^' is a plain character, not an
// anchor, as in Lua 5.1. The pattern is checked at once;
// the matching is done lazily, a match per call, each under the context of
// the state that calls the iterator.
//
// gopher-lua returns the iterator with a second value, a userdata state,
// and its iterator fails unless it gets that state back as its first
// argument (as a generic for passes it); this one returns the iterator alone
// and ignores its arguments, as C Lua does.
func (lib *library) gmatch(L *lua.LState) int {
	s := laux.CheckString(L, 1)
	p := laux.CheckString(L, 2)
	if strings.HasPrefix(p, "^") {
		p = "%" + p
	}
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
		case start < 0:
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
