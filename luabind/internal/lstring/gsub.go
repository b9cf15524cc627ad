package lstring

import (
	"fmt"
	"strconv"
	"unsafe"

	lua "github.com/yuin/gopher-lua"

	"github.com/luahost/luahost/luabind/internal/laux"
)

// string.gsub(s, pattern, repl [, n])
//
// gsub returns a copy of s in which each match of pattern (the first n only,
// when n is given) is replaced, and the number of matches, as Lua 5.1 does.
// repl may be:
//
//   - a string (or a number, as its string), in which %0 stands for the
//     whole match, %1 to %9 for the captures (%1 for the whole match when
//     there are none), and % before any other character for that
//     character (so %% is %; a final % stands for a NUL byte, as in C Lua);
//   - a table, indexed with the first capture (or the whole match);
//   - a function, called with the captures (or the whole match) through
//     L.Call, so under the state's context as any Lua code.
//
// When the table or function gives false or nil, the match is kept as it
// is; a string or number replaces it; any other value raises "invalid
// replacement value (a table)". The result is always a string. A given n
// of 0 or less replaces nothing. gsub raises "string.gsub: result too
// large" as soon as the result would pass Limits.MaxSize. Cost: linear in
// the result plus the matching; matches are replaced as they are found.
func (lib *library) gsub(L *lua.LState) int {
	s := laux.CheckString(L, 1)
	p := laux.CheckString(L, 2)
	repl := L.Get(3)
	switch repl.Type() {
	case lua.LTNumber, lua.LTString, lua.LTTable, lua.LTFunction:
	default:
		L.ArgError(3, "string/function/table expected")
	}
	limit := len(s) + 1
	if L.Get(4) != lua.LNil {
		limit = laux.OptInt(L, 4, limit)
	}

	pat := checkPattern(L, p)
	var template []replPart
	switch r := repl.(type) {
	case lua.LString:
		template = parseTemplate(string(r))
	case lua.LNumber:
		template = parseTemplate(lib.number(r))
	}

	var m matcher
	m.reset(L, pat, s)
	out := output{L: L, max: lib.maxSize, hint: len(s)}
	add := out.add
	copied := 0 // s[:copied] is in out already, or replaced
	count := 0
	for at := 0; at <= len(s) && count < limit; {
		start, end := m.search(at)
		if start < 0 {
			break
		}
		count++
		add(s[copied:start])
		copied = start
		var v lua.LValue
		switch r := repl.(type) {
		case *lua.LTable:
			if pat.ncap == 0 {
				v = L.GetTable(r, lua.LString(s[start:end]))
			} else {
				v = L.GetTable(r, m.captureValue(0))
			}
		case *lua.LFunction:
			L.Push(r)
			n := m.pushCaptures(start, end, true)
			L.Call(n, 1)
			v = L.Get(-1)
			L.Pop(1)
		default:
			for _, part := range template {
				if part.capture < 0 {
					add(part.text)
				} else {
					add(lib.templateCapture(&m, start, end, part.capture))
				}
			}
			copied = end
		}
		switch v := v.(type) {
		case nil, *lua.LNilType:
		case lua.LBool:
			if v {
				laux.Raise(L, "invalid replacement value (a boolean)")
			}
		case lua.LString:
			add(string(v))
			copied = end
		case lua.LNumber:
			add(lib.number(v))
			copied = end
		default:
			laux.Raise(L, "invalid replacement value (a "+v.Type().String()+")")
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
		L.Push(lua.LString(s))
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
		laux.Raise(o.L, fmt.Sprintf("string.gsub: result too large (limit %d bytes)", o.max))
	}
	if need > cap(o.buf) {
		size := max(need, 2*cap(o.buf), 64)
		if cap(o.buf) == 0 {
			size = max(need, o.hint, 64)
		}
		charge(o.L, min(size, o.max))
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

// parseTemplate splits a gsub replacement string into its parts, with Lua
// 5.1's reading of '%': % and a digit is a capture, % before anything else
// is that character, and a final % is a NUL byte.
func parseTemplate(r string) []replPart {
	var parts []replPart
	lit := make([]byte, 0, len(r))
	for i := 0; i < len(r); i++ {
		c := r[i]
		if c != '%' {
			lit = append(lit, c)
			continue
		}
		i++
		if i == len(r) {
			lit = append(lit, 0)
			break
		}
		d := r[i]
		if d < '0' || d > '9' {
			lit = append(lit, d)
			continue
		}
		if len(lit) > 0 {
			parts = append(parts, replPart{text: string(lit), capture: -1})
			lit = lit[:0]
		}
		parts = append(parts, replPart{capture: int(d - '0')})
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
		laux.Raise(m.L, "invalid capture index")
	}
	if m.pat.posCap&(1<<(k-1)) != 0 {
		return strconv.Itoa(m.caps[k-1].start + 1)
	}
	c := m.caps[k-1]
	return m.src[c.start:c.end]
}
