package lstring

import (
	"strconv"
	"unsafe"

	lua "github.com/yuin/gopher-lua"
)

// string.gsub(s, pattern, repl [, n])
//
// gsub returns a copy of s in which each match of pattern (the first n only,
// when n is given) is replaced, and the number of matches. repl may be:
//
//   - a string, in which %0 stands for the whole match, %1 to %9 for the
//     captures (%1 for the whole match when there are none) and %% for %.
//     As in gopher-lua, % before any other character stays as it is, and so
//     does a final %.
//   - a table, indexed with the first capture (or the whole match);
//   - a function, called with the captures (or the whole match) through
//     L.Call, so under the state's context as any Lua code.
//
// When the table or function gives false or nil, the match is kept as it
// is; any other value is converted with [lua.LVAsString] (so a table or
// boolean becomes ""), as in gopher-lua. When nothing matches, gsub returns
// its first argument itself, not converted to a string.
//
// Unlike gopher-lua, a given n of 0 or less replaces nothing, as in C Lua
// 5.1 (gopher-lua treats a negative n as no limit, and 0 as no limit when
// the first position matches). gsub raises "string.gsub: result too large"
// as soon as the result would pass Limits.MaxSize. Cost: linear in the
// result plus the matching; matches are replaced as they are found.
func (lib *library) gsub(L *lua.LState) int {
	s := L.CheckString(1)
	p := L.CheckString(2)
	L.CheckTypes(3, lua.LTString, lua.LTTable, lua.LTFunction)
	repl := L.CheckAny(3)
	limit := -1 // no limit
	if L.Get(4) != lua.LNil {
		limit = max(L.CheckInt(4), 0)
	}

	pat := checkPattern(L, p)
	var template []replPart
	if r, ok := repl.(lua.LString); ok {
		template = parseTemplate(string(r))
	}

	var m matcher
	m.reset(L, pat, s)
	out := output{L: L, max: lib.maxSize, hint: len(s)}
	add := out.add
	copied := 0 // s[:copied] is in out already, or replaced
	count := 0
	for at := 0; at <= len(s) && (limit < 0 || count < limit); {
		start, end := m.search(at)
		if start < 0 {
			break
		}
		count++
		add(s[copied:start])
		copied = start
		switch r := repl.(type) {
		case lua.LString:
			for _, part := range template {
				if part.capture < 0 {
					add(part.text)
				} else {
					add(lib.templateCapture(&m, start, end, part.capture))
				}
			}
			copied = end
		case *lua.LTable:
			var v lua.LValue
			switch {
			case pat.ncap == 0:
				v = L.GetField(r, s[start:end])
			case pat.posCap&1 != 0:
				v = L.GetTable(r, m.captureValue(0))
			default:
				v = L.GetField(r, string(m.captureValue(0).(lua.LString)))
			}
			if lua.LVIsFalse(v) {
				break
			}
			add(lua.LVAsString(v))
			copied = end
		case *lua.LFunction:
			L.Push(r)
			n := m.pushCaptures(start, end, true)
			L.Call(n, 1)
			v := L.Get(-1)
			L.Pop(1)
			if lua.LVIsFalse(v) {
				break
			}
			add(lua.LVAsString(v))
			copied = end
		}
		if pat.anchored {
			break
		}
		if end > start {
			at = end
		} else {
			at = start + 1
		}
	}
	if count == 0 {
		L.SetTop(1)
		L.Push(lua.LNumber(0))
		return 2
	}
	add(s[copied:])
	L.Push(lua.LString(out.String()))
	L.Push(lua.LNumber(count))
	return 2
}

// output is the result of gsub as it grows. It doubles its buffer as
// needed, up to its limit, so that building a result of n bytes allocates at
// most about 2n bytes.
type output struct {
	L    *lua.LState
	buf  []byte
	max  int // the size limit
	hint int // the first buffer's size
}

// add appends b, or raises "string.gsub: result too large" if that would
// pass the limit.
func (o *output) add(b string) {
	need := len(o.buf) + len(b)
	if need > o.max {
		o.L.RaiseError("string.gsub: result too large (limit %d bytes)", o.max)
	}
	if need > cap(o.buf) {
		size := max(need, 2*cap(o.buf), 64)
		if cap(o.buf) == 0 {
			size = max(need, o.hint, 64)
		}
		grown := make([]byte, len(o.buf), min(size, o.max))
		copy(grown, o.buf)
		o.buf = grown
	}
	o.buf = append(o.buf, b...)
}

// String returns the result. When the buffer is mostly full the string
// shares it (and the output must not change after); otherwise it is a copy,
// so that a short result does not hold on to a long buffer.
func (o *output) String() string {
	if len(o.buf) == 0 || cap(o.buf)-len(o.buf) > len(o.buf)/4 {
		return string(o.buf)
	}
	return unsafe.String(unsafe.SliceData(o.buf), len(o.buf))
}

// replPart is a piece of a gsub replacement string: literal text, or the
// capture with the given number (0 for the whole match).
type replPart struct {
	text    string
	capture int // -1 for text
}

// parseTemplate splits a gsub replacement string into its parts, with
// gopher-lua's reading of '%': %% is one %, % and a digit is a capture, and
// % before anything else (or at the end) is kept as it is.
func parseTemplate(r string) []replPart {
	var parts []replPart
	lit := make([]byte, 0, len(r))
	for i := 0; i < len(r); i++ {
		c := r[i]
		if c != '%' || i+1 == len(r) {
			lit = append(lit, c)
			continue
		}
		d := r[i+1]
		i++
		switch {
		case d == '%':
			lit = append(lit, '%')
		case '0' <= d && d <= '9':
			if len(lit) > 0 {
				parts = append(parts, replPart{text: string(lit), capture: -1})
				lit = lit[:0]
			}
			parts = append(parts, replPart{capture: int(d - '0')})
		default:
			lit = append(lit, '%', d)
		}
	}
	if len(lit) > 0 {
		parts = append(parts, replPart{text: string(lit), capture: -1})
	}
	return parts
}

// templateCapture returns the text of %k in a replacement string for the
// match [start, end): the whole match for %0 (and for %1 when the pattern has
// no captures), capture k otherwise. It raises "invalid capture index" when
// there is no capture k.
func (lib *library) templateCapture(m *matcher, start, end, k int) string {
	switch {
	case k == 0 || k == 1 && m.pat.ncap == 0:
		return m.src[start:end]
	case k > m.pat.ncap:
		m.L.RaiseError("invalid capture index")
	}
	if m.pat.posCap&(1<<(k-1)) != 0 {
		return strconv.Itoa(m.caps[k-1].start + 1)
	}
	c := m.caps[k-1]
	return m.src[c.start:c.end]
}
