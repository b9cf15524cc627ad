package laux

import (
	"math"
	"strconv"
	"strings"

	lua "github.com/yuin/gopher-lua"
)

// Lua 5.1 reads numbers in strings with C's strtod and strtoul; these
// functions read what glibc's read.

// cSpaces are the bytes C's isspace accepts.
const cSpaces = " \t\n\v\f\r"

// cString returns s up to its first NUL byte, where a C function stops
// reading it.
func cString(s string) string {
	if i := strings.IndexByte(s, 0); i >= 0 {
		return s[:i]
	}
	return s
}

// ToNumber converts s as Lua 5.1's lexer, tonumber and arithmetic do:
// C's strtod over the whole string (decimal, hexadecimal "0x1F",
// exponents "1e5", "inf", "nan"), apart from surrounding spaces; the
// string ends at a NUL byte, as a C string does.
func ToNumber(s string) (float64, bool) {
	s = cString(s)
	n, end := strtod(s)
	if end == 0 {
		return 0, false
	}
	if end < len(s) && (s[end] == 'x' || s[end] == 'X') {
		u, uend := strtoul(s, 16)
		n, end = float64(u), uend
	}
	return n, strings.TrimLeft(s[end:], cSpaces) == ""
}

// strtod reads a number from the start of s as glibc's strtod does:
// leading spaces, a sign, then "inf", "infinity", "nan", a hexadecimal
// number with an optional binary exponent, or a decimal number with an
// optional exponent. It returns the value and how many bytes it read (0
// when no number starts s).
func strtod(s string) (float64, int) {
	i := len(s) - len(strings.TrimLeft(s, cSpaces))
	start := i
	if i < len(s) && (s[i] == '+' || s[i] == '-') {
		i++
	}
	rest := strings.ToLower(s[i:])
	switch {
	case strings.HasPrefix(rest, "infinity"):
		return signed(s[start], math.Inf(1)), i + 8
	case strings.HasPrefix(rest, "inf"):
		return signed(s[start], math.Inf(1)), i + 3
	case strings.HasPrefix(rest, "nan"):
		return math.NaN(), i + 3
	}
	hex := strings.HasPrefix(rest, "0x")
	digit, expo := isDigit, byte('e')
	if hex {
		digit, expo = isHexDigit, 'p'
		i += 2
	}
	mant := i
	i = skip(s, i, digit)
	if i < len(s) && s[i] == '.' {
		i = skip(s, i+1, digit)
	}
	if i == mant || i == mant+1 && s[mant] == '.' {
		if hex {
			// "0x" alone is the number 0 followed by "x".
			return 0, mant - 1
		}
		return 0, 0
	}
	end := i
	if i < len(s) && (s[i]|0x20) == expo {
		j := i + 1
		if j < len(s) && (s[j] == '+' || s[j] == '-') {
			j++
		}
		if k := skip(s, j, isDigit); k > j {
			end = k
		}
	}
	text := s[start:end]
	if hex && end == i {
		text += "p0"
	}
	// A value out of range is ±Inf (or 0) as in C; ParseFloat returns
	// exactly that along with its range error.
	n, err := strconv.ParseFloat(text, 64)
	if err != nil && !isRangeError(err) {
		return 0, 0
	}
	return n, end
}

func isRangeError(err error) bool {
	ne, ok := err.(*strconv.NumError)
	return ok && ne.Err == strconv.ErrRange
}

func signed(sign byte, f float64) float64 {
	if sign == '-' {
		return -f
	}
	return f
}

func isHexDigit(c byte) bool { return digitValue(c) < 16 }

func skip(s string, i int, ok func(byte) bool) int {
	for i < len(s) && ok(s[i]) {
		i++
	}
	return i
}

// digitValue is c's value as a digit of base 36, or 99.
func digitValue(c byte) int {
	switch {
	case c >= '0' && c <= '9':
		return int(c - '0')
	case c >= 'a' && c <= 'z':
		return int(c-'a') + 10
	case c >= 'A' && c <= 'Z':
		return int(c-'A') + 10
	}
	return 99
}

// ToUnsigned converts s as Lua 5.1's tonumber(s, base) does: C's
// strtoul in base (2 to 36) over the whole string apart from surrounding
// spaces.
func ToUnsigned(s string, base int) (float64, bool) {
	s = cString(s)
	n, end := strtoul(s, base)
	return n, end > 0 && strings.TrimLeft(s[end:], cSpaces) == ""
}

// strtoul reads an unsigned integer in base from the start of s as C's
// strtoul does (leading spaces, a sign that negates modulo 2^64, "0x" in
// base 16, saturation at 2^64-1). It returns the value and how many bytes
// it read (0 when no digit was read).
func strtoul(s string, base int) (float64, int) {
	i := len(s) - len(strings.TrimLeft(s, cSpaces))
	neg := false
	if i < len(s) && (s[i] == '+' || s[i] == '-') {
		neg = s[i] == '-'
		i++
	}
	if base == 16 && i+2 < len(s) && s[i] == '0' && s[i+1]|0x20 == 'x' && digitValue(s[i+2]) < 16 {
		i += 2
	}
	start := i
	var n uint64
	overflow := false
	for ; i < len(s) && digitValue(s[i]) < base; i++ {
		d := uint64(digitValue(s[i]))
		if n > (math.MaxUint64-d)/uint64(base) {
			overflow = true
		}
		n = n*uint64(base) + d
	}
	if i == start {
		return 0, 0
	}
	switch {
	case overflow:
		n = math.MaxUint64
	case neg:
		n = -n
	}
	return float64(n), i
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

// ReadsAsNumber reports whether s reads as a number, as Lua 5.1's lexer
// and tonumber read one.
func ReadsAsNumber(s string) bool {
	_, ok := ToNumber(s)
	return ok
}

// ArithOperand returns v as Lua 5.1's arithmetic reads it: a number, or a
// string that reads as one.
func ArithOperand(v lua.LValue) (float64, bool) {
	switch x := v.(type) {
	case lua.LNumber:
		return float64(x), true
	case lua.LString:
		return ToNumber(string(x))
	}
	return 0, false
}
