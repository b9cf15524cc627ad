package lstring

import (
	"errors"
	"math"
)

// maxCaptures is the largest number of captures a pattern may have, as
// LUA_MAXCAPTURES in C Lua 5.1. It keeps the capture table a fixed array, so
// a pattern of a million "()" costs nothing to reject.
const maxCaptures = 32

// Error messages of malformed patterns that gopher-lua accepts silently (it
// treats the construct as a class that never matches, or as a literal) and
// that C Lua rejects. They are raised only when the pattern has no error that
// gopher-lua itself reports, so that the message for such a pattern stays the
// same.
const (
	errEndsWithPercent = "malformed pattern (ends with '%')"
	errBalanceArgs     = "unbalanced pattern"
	errFrontierSet     = "missing '[' after '%f' in pattern"
	errTooManyCaptures = "too many captures"
)

// unclosed marks a capture whose ')' has not been seen.
const unclosed = math.MaxInt32

// pattern is a checked Lua pattern. The matcher interprets src directly, as C
// Lua does, so checking a pattern allocates nothing that grows with its
// length.
type pattern struct {
	src      string
	start    int  // where matching begins in src: 1 after a leading '^', else 0
	end      int  // where it ends: len(src), or len(src)-1 before a final '$'
	anchored bool // a leading '^': match only at the initial position
	tail     bool // a final '$': match only up to the end of the subject
	ncap     int  // number of captures, position captures included
	posCap   uint32
	// open[k] is the offset in src of the '(' of capture k, close[k] that of
	// its ')' (for a position capture, the offset of its '(').
	open, close [maxCaptures]int32
	// lead is the byte a match must begin with, when the pattern begins with
	// a plain character that no quantifier makes optional; hasLead says
	// whether there is one. The search skips to it with IndexByte.
	lead    byte
	hasLead bool
}

// compile checks p with the grammar of gopher-lua's pattern parser and
// returns it ready for matching. Errors that gopher-lua reports come back
// with its message, position included ("invalid ')' at 3"); see the error
// constants above for those only C Lua reports.
func compile(p string) (*pattern, error) {
	pat := &pattern{src: p, end: len(p)}
	n := len(p)
	i := 0
	if n > 0 && p[0] == '^' {
		pat.anchored = true
		i = 1
	}
	pat.start = i

	// The open captures form a stack of increasing indexes; those past
	// maxCaptures (already an error) are only counted.
	var stack [maxCaptures]int8
	depth, extra := 0, 0
	deferred := ""
	later := func(msg string) {
		if deferred == "" {
			deferred = msg
		}
	}
	newCapture := func(at int, position bool) int {
		if pat.ncap == maxCaptures {
			later(errTooManyCaptures)
			return -1
		}
		k := pat.ncap
		pat.ncap++
		pat.open[k] = int32(at)
		pat.close[k] = unclosed
		if position {
			pat.close[k] = int32(at)
			pat.posCap |= 1 << k
		}
		return k
	}

	for i < n {
		switch p[i] {
		case '%':
			if i+1 >= n {
				later(errEndsWithPercent)
				i++
				continue
			}
			switch d := p[i+1]; {
			case d == '0':
				return nil, errors.New("invalid capture index")
			case '1' <= d && d <= '9':
				i += 2
			case d == 'b':
				if i+3 >= n {
					later(errBalanceArgs)
					i = n
				} else {
					i += 4
				}
			case d == 'f':
				if i+2 < n && p[i+2] == '[' {
					end, err := scanSet(p, i+2)
					if err != nil {
						return nil, err
					}
					i = end
				} else {
					later(errFrontierSet)
					i += 2
				}
			default:
				i += 2
			}
		case '[':
			end, err := scanSet(p, i)
			if err != nil {
				return nil, err
			}
			i = end
		case '(':
			if i+1 < n && p[i+1] == ')' {
				newCapture(i, true)
				i += 2
				continue
			}
			if k := newCapture(i, false); k >= 0 {
				stack[depth] = int8(k)
				depth++
			} else {
				extra++
			}
			i++
		case ')':
			switch {
			case extra > 0:
				extra--
			case depth > 0:
				depth--
				pat.close[stack[depth]] = int32(i)
			default:
				return nil, errors.New("invalid pattern capture")
			}
			i++
		case '$':
			if depth+extra == 0 && i == n-1 {
				pat.tail = true
				pat.end = i
			}
			i++
		default:
			i++
		}
	}
	if depth+extra > 0 {
		return nil, errors.New("unfinished capture")
	}
	if deferred != "" {
		return nil, errors.New(deferred)
	}
	pat.lead, pat.hasLead = leadByte(pat)
	return pat, nil
}

// leadByte returns the byte every match of pat begins with, if its first
// item is a plain character that is not optional.
func leadByte(pat *pattern) (byte, bool) {
	p, i := pat.src, pat.start
	if i >= pat.end {
		return 0, false
	}
	switch c := p[i]; c {
	case '(', ')', '[', '%', '.':
		return 0, false
	default:
		if i+1 < pat.end {
			switch p[i+1] {
			case '*', '?', '-':
				return 0, false
			}
		}
		return c, true
	}
}

// scanSet checks the set that starts with the '[' at p[i] and returns the
// offset just past it, as Lua 5.1 finds a set's end: the first character
// after the '[' (or "[^") is a member whatever it is (so "[]]" is the set
// of ']'), an escape "%x" is skipped whole, and the set ends at the next
// ']'.
func scanSet(p string, i int) (int, error) {
	j := i + 1
	if j < len(p) && p[j] == '^' {
		j++
	}
	for {
		if j >= len(p) {
			return 0, errors.New("malformed pattern (missing ']')")
		}
		c := p[j]
		j++
		if c == '%' && j < len(p) {
			j++
		}
		if j < len(p) && p[j] == ']' {
			return j + 1, nil
		}
	}
}

// setEnd returns the offset just past the checked set whose '[' is at p[i].
func setEnd(p string, i int) int {
	end, _ := scanSet(p, i)
	return end
}

// matchSet reports whether c is in the checked set whose '[' is at p[i],
// and returns the offset just past the set. It reads the set as Lua 5.1
// does, left to right: "%x" is a class (or the escaped character), "x-y"
// a range whenever a character follows the '-' inside the set (so in
// "[%a-z]" the '-' and 'z' are members, and "[a-%z]" is the range from 'a'
// to '%', then 'z'), and anything else the character itself.
func matchSet(p string, i int, c byte) (bool, int) {
	end := setEnd(p, i)
	ec := end - 1
	in := true
	j := i
	if p[j+1] == '^' {
		in = false
		j++
	}
	for j++; j < ec; j++ {
		switch {
		case p[j] == '%':
			j++
			if matchClass(p[j], c) {
				return in, end
			}
		case p[j+1] == '-' && j+2 < ec:
			if p[j] <= c && c <= p[j+2] {
				return in, end
			}
			j += 2
		case p[j] == c:
			return in, end
		}
	}
	return !in, end
}

// matchClass reports whether c is in the class %cl: a letter among
// a c d l p s u w x z (upper case for the complement), or else the character
// cl itself.
func matchClass(cl, c byte) bool {
	var ok bool
	switch cl | 0x20 {
	case 'a':
		ok = 'A' <= c && c <= 'Z' || 'a' <= c && c <= 'z'
	case 'c':
		ok = c < 0x20 || c == 0x7f
	case 'd':
		ok = '0' <= c && c <= '9'
	case 'l':
		ok = 'a' <= c && c <= 'z'
	case 'p':
		ok = 0x21 <= c && c <= 0x2f || 0x3a <= c && c <= 0x40 || 0x5b <= c && c <= 0x60 || 0x7b <= c && c <= 0x7e
	case 's':
		ok = c == ' ' || '\t' <= c && c <= '\r'
	case 'u':
		ok = 'A' <= c && c <= 'Z'
	case 'w':
		ok = '0' <= c && c <= '9' || 'A' <= c && c <= 'Z' || 'a' <= c && c <= 'z'
	case 'x':
		ok = '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F'
	case 'z':
		ok = c == 0
	default:
		return cl == c
	}
	if 'A' <= cl && cl <= 'Z' {
		return !ok
	}
	return ok
}
