package lstring

import (
	"context"
	"strings"

	lua "github.com/yuin/gopher-lua"

	"github.com/luahost/luahost/luabind/internal/budget"
	"github.com/luahost/luahost/luabind/internal/laux"
)

const (
	// pollInterval is how many matcher steps pass between two looks at
	// the state's context.
	pollInterval = 1000
	// maxDepth bounds the matcher's recursion, which grows by one level
	// per quantified item (?, *, + and -) of the pattern, as MAXCCALLS in
	// C Lua 5.2 and later.
	maxDepth = 200
)

// capture is one capture of the current match: the subject's bytes
// [start, end), or for a position capture the offset start.
type capture struct {
	start, end int
}

// matcher matches a checked pattern against a subject. It is a backtracking
// interpreter of the pattern text in the manner of C Lua's lstrlib: only
// quantifiers recurse, captures are recorded in place.
//
// It counts steps (one per pattern item tried, plus one per subject byte
// scanned) and every pollInterval steps charges them to the state's work
// budget and raises a Lua error with the context's error if that stopped
// the callback, so a pathological pattern ends with the callback's budget.
type matcher struct {
	L     *lua.LState
	ctx   context.Context
	pat   *pattern
	src   string
	steps int
	depth int
	caps  [maxCaptures]capture
}

// reset prepares m for matching in L, whose context it polls.
func (m *matcher) reset(L *lua.LState, pat *pattern, src string) {
	m.L = L
	m.ctx = L.Context()
	m.pat = pat
	m.src = src
	m.depth = 0
}

// tick counts n steps and polls the context when enough have passed.
func (m *matcher) tick(n int) {
	m.steps += n
	if m.steps >= pollInterval {
		m.steps = 0
		// Four steps are about an instruction's work.
		if m.ctx != nil && budget.Charge(m.ctx, pollInterval/4) {
			m.L.RaiseError("%s", m.ctx.Err().Error())
		}
	}
}

// search finds the first match that begins at or after init (a 0-based
// offset) and returns its bounds, or -1, -1.
func (m *matcher) search(init int) (int, int) {
	pat := m.pat
	for s := init; s <= len(m.src); s++ {
		if pat.hasLead && !pat.anchored {
			k := strings.IndexByte(m.src[s:], pat.lead)
			if k < 0 {
				return -1, -1
			}
			m.tick(k/16 + 1)
			s += k
		}
		m.depth = 0
		if e := m.match(s, pat.start); e >= 0 {
			return s, e
		}
		if pat.anchored {
			break
		}
	}
	return -1, -1
}

// nested matches the rest of the pattern one recursion level deeper.
func (m *matcher) nested(s, pi int) int {
	if m.depth >= maxDepth {
		laux.Raise(m.L, "pattern too complex")
	}
	m.depth++
	e := m.match(s, pi)
	m.depth--
	return e
}

// match matches the pattern from offset pi against the subject from offset s
// and returns where the match ends, or -1.
func (m *matcher) match(s, pi int) int {
	p, src, end := m.pat.src, m.src, m.pat.end
	for {
		m.tick(1)
		if pi >= end {
			if m.pat.tail && s != len(src) {
				return -1
			}
			return s
		}
		switch p[pi] {
		case '(':
			k := m.pat.captureAt(pi)
			m.caps[k] = capture{s, s}
			if m.pat.posCap&(1<<k) != 0 {
				pi += 2
			} else {
				pi++
			}
			continue
		case ')':
			m.caps[m.pat.closedAt(pi)].end = s
			pi++
			continue
		case '%':
			switch d := p[pi+1]; {
			case d == 'b':
				if s = m.balance(s, p[pi+2], p[pi+3]); s < 0 {
					return -1
				}
				pi += 4
				continue
			case d == 'f':
				var prev, cur byte
				if s > 0 {
					prev = src[s-1]
				}
				if s < len(src) {
					cur = src[s]
				}
				inPrev, ep := matchSet(p, pi+2, prev)
				inCur, _ := matchSet(p, pi+2, cur)
				m.tick((ep - pi) >> 3)
				if inPrev || !inCur {
					return -1
				}
				pi = ep
				continue
			case '1' <= d && d <= '9':
				if s = m.backref(s, pi, int(d-'1')); s < 0 {
					return -1
				}
				pi += 2
				continue
			}
		}

		// A single-character class, maybe quantified.
		ep := m.classEnd(pi)
		var q byte
		if ep < end {
			q = p[ep]
		}
		switch q {
		case '?':
			if s < len(src) && m.single(pi, src[s]) {
				if e := m.nested(s+1, ep+1); e >= 0 {
					return e
				}
			}
			pi = ep + 1
		case '*':
			return m.maxExpand(s, pi, ep)
		case '+':
			if s >= len(src) || !m.single(pi, src[s]) {
				return -1
			}
			return m.maxExpand(s+1, pi, ep)
		case '-':
			return m.minExpand(s, pi, ep)
		default:
			if s >= len(src) || !m.single(pi, src[s]) {
				return -1
			}
			s++
			pi = ep
		}
	}
}

// maxExpand matches as many characters of the class at pi as it can from s,
// then gives them back one by one until the rest (after the quantifier at
// ep) matches.
func (m *matcher) maxExpand(s, pi, ep int) int {
	i := 0
	for s+i < len(m.src) && m.single(pi, m.src[s+i]) {
		i++
	}
	m.tick(i)
	for ; i >= 0; i-- {
		if e := m.nested(s+i, ep+1); e >= 0 {
			return e
		}
	}
	return -1
}

// minExpand matches as few characters of the class at pi as it can from s:
// one more each time the rest (after the quantifier at ep) fails.
func (m *matcher) minExpand(s, pi, ep int) int {
	for {
		if e := m.nested(s, ep+1); e >= 0 {
			return e
		}
		if s >= len(m.src) || !m.single(pi, m.src[s]) {
			return -1
		}
		s++
	}
}

// classEnd returns the offset just past the single-character class at pi.
func (m *matcher) classEnd(pi int) int {
	switch m.pat.src[pi] {
	case '%':
		return pi + 2
	case '[':
		ep := setEnd(m.pat.src, pi)
		m.tick((ep - pi) >> 4)
		return ep
	default:
		return pi + 1
	}
}

// single reports whether c is in the single-character class at pi.
func (m *matcher) single(pi int, c byte) bool {
	p := m.pat.src
	switch p[pi] {
	case '.':
		return true
	case '%':
		return matchClass(p[pi+1], c)
	case '[':
		ok, ep := matchSet(p, pi, c)
		m.tick((ep - pi) >> 4) // a long set costs as much as many items
		return ok
	default:
		return p[pi] == c
	}
}

// balance matches %bxy at s: an x, then text in which x and y balance, then
// the y that closes it. It returns the offset after that y, or -1.
func (m *matcher) balance(s int, x, y byte) int {
	src := m.src
	if s >= len(src) || src[s] != x {
		return -1
	}
	open := 1
	for j := s + 1; j < len(src); j++ {
		switch src[j] {
		case y:
			if open--; open == 0 {
				m.tick(j - s)
				return j + 1
			}
		case x:
			open++
		}
	}
	m.tick(len(src) - s)
	return -1
}

// backref matches %k+1 (the text of capture k) at s, whose item is at pi. A
// back-reference to a position capture never matches, as in Lua 5.1.
func (m *matcher) backref(s, pi, k int) int {
	if k >= m.pat.ncap || int(m.pat.close[k]) > pi {
		laux.Raise(m.L, "invalid capture index")
	}
	if m.pat.posCap&(1<<k) != 0 {
		return -1
	}
	c := m.caps[k]
	n := c.end - c.start
	if len(m.src)-s < n || m.src[s:s+n] != m.src[c.start:c.end] {
		return -1
	}
	m.tick(n)
	return s + n
}

// captureAt returns the index of the capture whose '(' is at pi.
func (pat *pattern) captureAt(pi int) int {
	for k := range pat.ncap {
		if int(pat.open[k]) == pi {
			return k
		}
	}
	panic("lstring: no capture opens at this offset")
}

// closedAt returns the index of the capture whose ')' is at pi.
func (pat *pattern) closedAt(pi int) int {
	for k := range pat.ncap {
		if int(pat.close[k]) == pi {
			return k
		}
	}
	panic("lstring: no capture closes at this offset")
}

// pushCaptures pushes the captures of the match [s, e) onto L's stack, or
// the whole match when the pattern has none and whole is true, and returns
// how many values it pushed. A position capture is a number.
func (m *matcher) pushCaptures(s, e int, whole bool) int {
	if m.pat.ncap == 0 {
		if !whole {
			return 0
		}
		m.L.Push(lua.LString(m.src[s:e]))
		return 1
	}
	for k := range m.pat.ncap {
		m.L.Push(m.captureValue(k))
	}
	return m.pat.ncap
}

// captureValue returns capture k of the current match as a Lua value.
func (m *matcher) captureValue(k int) lua.LValue {
	c := m.caps[k]
	if m.pat.posCap&(1<<k) != 0 {
		return lua.LNumber(c.start + 1)
	}
	return lua.LString(m.src[c.start:c.end])
}
