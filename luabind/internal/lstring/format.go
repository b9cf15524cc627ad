package lstring

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	lua "github.com/yuin/gopher-lua"

	"github.com/luahost/luahost/luabind/internal/laux"
)

// formatFlags are the flags C's printf (and so Lua 5.1) accepts.
const formatFlags = "-+ #0"

// string.format(formatstring, ...)
//
// format is Lua 5.1's string.format: each directive
// %[flags][width][.precision]conversion, with at most five flags and
// widths and precisions of at most two digits, formats the next argument
// as C's printf does:
//
//   - c, d, i, o, u, x, X: the number (or numeric string) truncated to an
//     integer (o, u, x and X read it as unsigned 64 bits);
//   - e, E, f, g, G: the number ("inf", "-inf", "nan" and "-nan" for the
//     special values);
//   - s: the string, or the number as tostring writes it; q: the string
//     between double quotes, escaped so that Lua reads it back (\", \\, a
//     backslash before a newline, \r and \000);
//   - %%: a percent sign.
//
// Any other conversion raises "invalid option '%y' to 'format'", an
// argument missing "bad argument #n to 'format' (no value)". A result
// longer than Limits.MaxSize raises "string.format: result too large"
// before the piece that would pass the limit is added. Cost: linear in the
// result, which each directive extends by at most a few hundred bytes
// (plus its string argument).
func (lib *library) formatBounded(L *lua.LState) int {
	format := laux.CheckString(L, 1)
	size := lib.formatWalk(L, format, nil)
	if size > lib.maxSize {
		lib.raiseTooLarge(L, "format")
	}
	charge(L, size)
	var b strings.Builder
	b.Grow(size)
	lib.formatWalk(L, format, &b)
	L.Push(lua.LString(b.String()))
	return 1
}

// formatWalk goes through format and its arguments, writing the result to
// b, or, when b is nil, only measuring it (without building %s and %q
// pieces). It returns the result's size.
func (lib *library) formatWalk(L *lua.LState, format string, b *strings.Builder) int {
	top := L.GetTop()
	arg := 1
	size := 0
	add := func(s string) {
		size += len(s)
		if b != nil {
			b.WriteString(s)
		}
	}
	for i := 0; i < len(format); {
		j := strings.IndexByte(format[i:], '%')
		if j < 0 {
			add(format[i:])
			break
		}
		add(format[i : i+j])
		i += j + 1
		if i < len(format) && format[i] == '%' {
			add("%")
			i++
			continue
		}
		arg++
		if arg > top {
			L.ArgError(arg, "no value")
		}
		spec, conv, next := scanFormat(L, format, i)
		i = next
		if b == nil && (conv == 's' || conv == 'q') {
			size += spec.stringSize(lib.checkString(L, arg), conv)
			continue
		}
		add(lib.formatOne(L, spec, conv, arg))
	}
	return size
}

// stringSize is the size of the %s or %q piece for s.
func (d directive) stringSize(s string, conv byte) int {
	if conv == 'q' {
		n := len(s) + 2
		for i := 0; i < len(s); i++ {
			switch s[i] {
			case '"', '\\', '\n', '\r':
				n++
			case 0:
				n += 3
			}
		}
		return n
	}
	n := len(s)
	if d.prec < 0 && n >= 100 {
		return n
	}
	if d.prec >= 0 {
		n = min(n, d.prec)
	}
	return max(n, d.width)
}

// directive is one parsed %-directive without its conversion.
type directive struct {
	flags     string
	width     int
	prec      int // -1 when absent
	hasWidth  bool
	leftAlign bool
}

// scanFormat reads the flags, width and precision of the directive that
// starts at format[i] (just after the '%') and returns them with the
// conversion character and the index after it.
func scanFormat(L *lua.LState, format string, i int) (directive, byte, int) {
	d := directive{prec: -1}
	start := i
	for i < len(format) && strings.IndexByte(formatFlags, format[i]) >= 0 {
		i++
	}
	if i-start > len(formatFlags) {
		laux.Raise(L, "invalid format (repeated flags)")
	}
	d.flags = format[start:i]
	d.leftAlign = strings.Contains(d.flags, "-")
	digits := func() (int, bool) {
		n, k := 0, 0
		for ; k < 2 && i < len(format) && isDigit(format[i]); k++ {
			n = n*10 + int(format[i]-'0')
			i++
		}
		return n, k > 0
	}
	d.width, d.hasWidth = digits()
	if i < len(format) && format[i] == '.' {
		i++
		d.prec, _ = digits()
	}
	if i < len(format) && isDigit(format[i]) {
		laux.Raise(L, "invalid format (width or precision too long)")
	}
	if i == len(format) {
		laux.Raise(L, "invalid option '%' to 'format'")
	}
	return d, format[i], i + 1
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

// formatOne formats argument arg with directive d and conversion conv.
func (lib *library) formatOne(L *lua.LState, d directive, conv byte, arg int) string {
	switch conv {
	case 'c':
		// Lua 5.1 keeps what C's sprintf wrote up to its first NUL: %c
		// of 0 adds nothing after the padding on its left.
		// Its argument is converted as (int)d (laux.CInt).
		return cutNUL(d.pad(string([]byte{byte(laux.CInt(float64(lib.checkNumber(L, arg))))})))
	case 'd', 'i':
		// Converted as (long)d: laux.Long.
		n := laux.Long(float64(lib.checkNumber(L, arg)))
		if n == 0 && d.prec == 0 {
			return d.emptyZero(conv)
		}
		return fmt.Sprintf(d.goSpec('d'), n)
	case 'o', 'u', 'x', 'X':
		// Converted as (unsigned long)d: laux.ULong.
		n := laux.ULong(float64(lib.checkNumber(L, arg)))
		if n == 0 && d.prec == 0 {
			return d.emptyZero(conv)
		}
		verb := rune(conv)
		if conv == 'u' {
			verb = 'd'
		}
		// C ignores the sign flags of unsigned conversions.
		d.flags = strings.NewReplacer("+", "", " ", "").Replace(d.flags)
		if n == 0 {
			// C writes 0 without the prefix that '#' asks for.
			d.flags = strings.ReplaceAll(d.flags, "#", "")
		}
		return fmt.Sprintf(d.goSpec(verb), n)
	case 'e', 'E', 'f', 'g', 'G':
		f := float64(lib.checkNumber(L, arg))
		if math.IsInf(f, 0) || math.IsNaN(f) {
			return d.special(f, conv)
		}
		if d.prec < 0 {
			d.prec = 6
		}
		return fmt.Sprintf(d.goSpec(rune(conv)), f)
	case 's':
		s := lib.checkString(L, arg)
		if d.prec < 0 && len(s) >= 100 {
			// Lua 5.1 adds a long string whole, NUL bytes included.
			return s
		}
		// Otherwise C's sprintf reads the string up to its first NUL.
		s = cutNUL(s)
		if d.prec >= 0 && len(s) > d.prec {
			s = s[:d.prec]
		}
		return d.pad(s)
	case 'q':
		return quote(lib.checkString(L, arg))
	}
	laux.Raise(L, fmt.Sprintf("invalid option '%%%c' to 'format'", conv))
	return ""
}

// emptyZero formats 0 with a precision of 0, which C writes without
// digits: only the sign that '+' or ' ' asks for (of %d and %i), or the
// 0 that '#' asks for (of %o), padded to the width with spaces.
func (d directive) emptyZero(conv byte) string {
	s := ""
	switch {
	case conv == 'o' && strings.Contains(d.flags, "#"):
		s = "0"
	case conv != 'd' && conv != 'i':
	case strings.Contains(d.flags, "+"):
		s = "+"
	case strings.Contains(d.flags, " "):
		s = " "
	}
	return d.pad(s)
}

// cutNUL returns s up to its first NUL byte, as C reads a string.
func cutNUL(s string) string {
	if i := strings.IndexByte(s, 0); i >= 0 {
		return s[:i]
	}
	return s
}

// goSpec returns d as a directive of Go's fmt with the given verb.
func (d directive) goSpec(verb rune) string {
	var b strings.Builder
	b.WriteByte('%')
	b.WriteString(d.flags)
	if d.hasWidth {
		b.WriteString(strconv.Itoa(d.width))
	}
	if d.prec >= 0 {
		b.WriteByte('.')
		b.WriteString(strconv.Itoa(d.prec))
	}
	b.WriteRune(verb)
	return b.String()
}

// pad pads s with spaces to d's width, on the left unless d has '-'.
func (d directive) pad(s string) string {
	if len(s) >= d.width {
		return s
	}
	fill := strings.Repeat(" ", d.width-len(s))
	if d.leftAlign {
		return s + fill
	}
	return fill + s
}

// special formats an infinity or a NaN as C does: "inf", "-inf", "nan" or
// "-nan" (upper case for E, G), after a '+' or ' ' flag's sign, padded
// with spaces.
func (d directive) special(f float64, conv byte) string {
	s := "inf"
	if math.IsNaN(f) {
		s = "nan"
	}
	switch {
	case math.Signbit(f):
		s = "-" + s
	case strings.Contains(d.flags, "+"):
		s = "+" + s
	case strings.Contains(d.flags, " "):
		s = " " + s
	}
	if conv == 'E' || conv == 'G' {
		s = strings.ToUpper(s)
	}
	return d.pad(s)
}

// quote returns s as %q writes it.
func quote(s string) string {
	var b strings.Builder
	b.Grow(len(s) + 2)
	b.WriteByte('"')
	for i := 0; i < len(s); i++ {
		switch c := s[i]; c {
		case '"', '\\', '\n':
			b.WriteByte('\\')
			b.WriteByte(c)
		case '\r':
			b.WriteString(`\r`)
		case 0:
			b.WriteString(`\000`)
		default:
			b.WriteByte(c)
		}
	}
	b.WriteByte('"')
	return b.String()
}

// checkNumber returns argument n as a number: a number, or a string that
// reads as one; anything else is an argument error.
func (lib *library) checkNumber(L *lua.LState, n int) lua.LNumber {
	switch v := L.Get(n).(type) {
	case lua.LNumber:
		return v
	case lua.LString:
		if f, ok := laux.ToNumber(string(v)); ok {
			return lua.LNumber(f)
		}
	}
	laux.TypeError(L, n, lua.LTNumber)
	return 0
}

// checkString returns argument n as a string: a string, or a number as
// tostring writes it; anything else is an argument error.
func (lib *library) checkString(L *lua.LState, n int) string {
	switch v := L.Get(n).(type) {
	case lua.LString:
		return string(v)
	case lua.LNumber:
		return lib.number(v)
	}
	laux.TypeError(L, n, lua.LTString)
	return ""
}
