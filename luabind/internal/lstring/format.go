package lstring

import (
	"fmt"
	"reflect"
	"strconv"
	"strings"
	"unicode/utf8"

	lua "github.com/yuin/gopher-lua"
)

// string.format(formatstring, ...)
//
// format is gopher-lua's string.format, which hands formatstring and the
// arguments (as Lua values) to Go's fmt.Sprintf, behind three checks made
// before anything is formatted:
//
//   - each directive has at most 5 flags, and a width and a precision of at
//     most 2 digits, as in C Lua; otherwise it raises "invalid format
//     (repeated flags)" or "invalid format (width or precision too long)".
//   - a table, function, userdata or thread may be formatted only with %s,
//     %v, %q, %x, %X, %T or %p; with another verb fmt would print the Go
//     structure behind it, which is as large as the table, so it raises
//     "bad argument #n to format (number expected, got table)", as C Lua
//     does.
//   - the result must fit in Limits.MaxSize, or it raises "string.format:
//     result too large".
//
// Cost: a pass over formatstring that bounds the result's size from above
// without formatting anything. Only when that bound passes the limit, a
// second pass bounds it from below (and refuses when that passes the limit
// too), then a third formats each directive alone to measure it exactly,
// and stops once past the limit.
func (lib *library) formatBounded(L *lua.LState) int {
	format := L.CheckString(1)
	top := L.GetTop()
	args := make([]lua.LValue, 0, top-1)
	for i := 2; i <= top; i++ {
		args = append(args, L.Get(i))
	}
	// gopher-lua passes only as many arguments as it counts directives.
	npat := strings.Count(format, "%") - strings.Count(format, "%%")
	args = args[:min(npat, len(args))]

	if lib.formatSize(L, format, args, upperBound) > lib.maxSize &&
		(lib.formatSize(L, format, args, lowerBound) > lib.maxSize ||
			lib.formatSize(L, format, args, exactSize) > lib.maxSize) {
		lib.raiseTooLarge(L, "format")
	}
	n := lib.format(L)
	if r, ok := L.Get(-1).(lua.LString); ok && len(r) > lib.maxSize {
		lib.raiseTooLarge(L, "format")
	}
	return n
}

// fmtSpec is the state of one fmt directive: its flags, width, precision and
// verb.
type fmtSpec struct {
	sharp, zero, plus, minus, space bool
	sharpV, plusV                   bool
	wid, prec                       int
	widPresent, precPresent         bool
	verb                            rune
}

// String returns a format string with the single directive sp.
func (sp *fmtSpec) String() string {
	var b strings.Builder
	b.WriteByte('%')
	if sp.sharp || sp.sharpV {
		b.WriteByte('#')
	}
	if sp.plus || sp.plusV {
		b.WriteByte('+')
	}
	if sp.minus {
		b.WriteByte('-')
	}
	if sp.space {
		b.WriteByte(' ')
	}
	if sp.zero {
		b.WriteByte('0')
	}
	if sp.widPresent {
		b.WriteString(strconv.Itoa(sp.wid))
	}
	if sp.precPresent {
		b.WriteByte('.')
		b.WriteString(strconv.Itoa(sp.prec))
	}
	b.WriteRune(sp.verb)
	return b.String()
}

// sizeMode says how formatSize measures.
type sizeMode int

const (
	upperBound sizeMode = iota // a bound from above, formatting nothing
	lowerBound                 // a bound from below, formatting nothing
	exactSize                  // each directive formatted alone and measured
)

// formatSize reads format as fmt.Sprintf does (the Go 1.26 doPrintf) and
// measures fmt.Sprintf(format, args...) as mode says, raising the errors
// that formatBounded documents. The walk stops as soon as the total passes
// the limit, so it measures a result that fits, and no more than that.
func (lib *library) formatSize(L *lua.LState, format string, a []lua.LValue, mode sizeMode) int {
	end := len(format)
	argNum := 0
	afterIndex := false
	reordered := false
	total := 0

	// argNumber reads an explicit argument index such as [3] at i.
	goodArgNum := true
	argNumber := func(argNum, i int) (int, int, bool) {
		if i >= end || format[i] != '[' {
			return argNum, i, false
		}
		reordered = true
		index, wid, ok := parseArgNumber(format[i:])
		if ok && 0 <= index && index < len(a) {
			return index, i + wid, true
		}
		goodArgNum = false
		return argNum, i + wid, ok
	}
	// number checks the digits at i, a width or precision, and reads them.
	number := func(i int) (int, bool, int) {
		j := i
		for j < end && '0' <= format[j] && format[j] <= '9' {
			j++
		}
		if j-i > 2 {
			L.RaiseError("invalid format (width or precision too long)")
		}
		if j == i {
			return 0, false, i
		}
		n, _ := strconv.Atoi(format[i:j])
		return n, true, j
	}
	checkFlags := func(n int) {
		if n > 5 {
			L.RaiseError("invalid format (repeated flags)")
		}
	}

formatLoop:
	for i := 0; i < end; {
		if total > lib.maxSize {
			return total // only the comparison with the limit matters
		}
		goodArgNum = true
		lasti := i
		for i < end && format[i] != '%' {
			i++
		}
		total += i - lasti
		if i >= end {
			break
		}
		i++

		var sp fmtSpec
		flags := 0
	simpleFormat:
		for ; i < end; i++ {
			c := format[i]
			switch c {
			case '#':
				sp.sharp = true
			case '0':
				sp.zero = true
			case '+':
				sp.plus = true
			case '-':
				sp.minus = true
			case ' ':
				sp.space = true
			default:
				if 'a' <= c && c <= 'z' && argNum < len(a) {
					checkFlags(flags)
					sp.verb = rune(c)
					total += lib.argSize(L, &sp, a[argNum], argNum, mode)
					argNum++
					i++
					continue formatLoop
				}
				break simpleFormat
			}
			flags++
		}
		checkFlags(flags)

		argNum, i, afterIndex = argNumber(argNum, i)
		if i < end && format[i] == '*' {
			// A width taken from an argument must be a Go int, which no
			// Lua value is: fmt always writes %!(BADWIDTH).
			i++
			if argNum < len(a) {
				argNum++
			}
			total += len("%!(BADWIDTH)")
			afterIndex = false
		} else {
			sp.wid, sp.widPresent, i = number(i)
			if afterIndex && sp.widPresent {
				goodArgNum = false
			}
		}

		if i+1 < end && format[i] == '.' {
			i++
			if afterIndex {
				goodArgNum = false
			}
			argNum, i, _ = argNumber(argNum, i)
			if i < end && format[i] == '*' {
				i++
				if argNum < len(a) {
					argNum++
				}
				total += len("%!(BADPREC)")
				afterIndex = false
			} else {
				sp.prec, sp.precPresent, i = number(i)
				sp.precPresent = true
			}
		}

		if !afterIndex {
			argNum, i, _ = argNumber(argNum, i)
		}
		if i >= end {
			total += len("%!(NOVERB)")
			break
		}
		verb, size := utf8.DecodeRuneInString(format[i:])
		i += size
		sp.verb = verb
		switch {
		case verb == '%':
			total++
		case !goodArgNum:
			total += len("%!(BADINDEX)") + utf8.RuneLen(verb)
		case argNum >= len(a):
			total += len("%!(MISSING)") + utf8.RuneLen(verb)
		default:
			total += lib.argSize(L, &sp, a[argNum], argNum, mode)
			argNum++
		}
	}

	if !reordered && argNum < len(a) {
		total += len("%!(EXTRA )")
		for k, arg := range a[argNum:] {
			if k > 0 {
				total += len(", ")
			}
			total += len(reflect.TypeOf(arg).String()) + 1
			sp := fmtSpec{verb: 'v'}
			total += lib.argSize(L, &sp, arg, argNum+k, mode)
		}
	}
	return total
}

// Upper bounds of the text fmt prints for a directive, given a width and a
// precision of at most 99.
const (
	numberBound = 512 // a number, with any verb (%.99f of 1e308 is 410 bytes)
	otherBound  = 256 // a value printed through its String method, or a boolean or nil
)

// argSize measures, as mode says, the text fmt prints for the directive sp
// applied to the argument arg, which is argument argNum of fmt.Sprintf and
// so argNum+2 of string.format.
func (lib *library) argSize(L *lua.LState, sp *fmtSpec, arg lua.LValue, argNum int, mode sizeMode) int {
	if sp.verb == 'v' || sp.verb == 'w' {
		// As fmt: %#v asks for Go syntax and %+v for field names.
		sp.sharpV, sp.sharp = sp.sharp, false
		sp.plusV, sp.plus = sp.plus, false
	}
	switch arg.(type) {
	case *lua.LTable, *lua.LFunction, *lua.LUserData, *lua.LState:
		// fmt prints these with their String method only for these verbs
		// (%T and %p do not look inside either); other verbs print the Go
		// structure, as large as a table's contents.
		switch sp.verb {
		case 's', 'x', 'X', 'q', 'T', 'p':
		case 'v':
			if !sp.sharpV {
				break
			}
			fallthrough
		default:
			L.ArgError(argNum+2, "number expected, got "+arg.Type().String())
		}
	}

	s, isString := arg.(lua.LString)
	n := len(s)
	if isString && (sp.verb == 's' || sp.verb == 'v' && !sp.sharpV) {
		return stringSize(sp, string(s))
	}
	switch mode {
	case exactSize:
		return exactArgSize(sp, arg)
	case lowerBound:
		if !isString || sp.precPresent {
			return 0
		}
		switch sp.verb {
		case 'q':
			return n + 2
		case 'x', 'X':
			return 2 * n
		}
		return 0
	}
	if !isString {
		if _, ok := arg.(lua.LNumber); ok {
			return numberBound
		}
		return otherBound
	}
	switch sp.verb {
	case 'q':
		return 4*n + 2 + 99 // \xff for each byte at worst
	case 'x', 'X':
		return 5*n + 2 + 99 // "% #x": "0xff " for each byte
	case 'd', 'i':
		return n + numberBound
	default:
		return n + otherBound // %!c(string=...)
	}
}

// stringSize returns the size of the string s printed by %s (or %v) with
// the width and precision of sp, both counted in runes as fmt does. Both
// being at most 99, it looks at no more than 100 runes of s.
func stringSize(sp *fmtSpec, s string) int {
	if sp.precPresent {
		end := 0
		for range sp.prec {
			if end == len(s) {
				break
			}
			_, size := utf8.DecodeRuneInString(s[end:])
			end += size
		}
		s = s[:end]
	}
	if sp.widPresent && sp.wid > 0 {
		runes := 0
		for i := 0; i < len(s) && runes < sp.wid; runes++ {
			_, size := utf8.DecodeRuneInString(s[i:])
			i += size
		}
		if runes < sp.wid {
			return len(s) + sp.wid - runes
		}
	}
	return len(s)
}

// exactArgSize formats arg with the directive sp, as fmt would in the middle
// of a format, and returns the size of the text.
func exactArgSize(sp *fmtSpec, arg lua.LValue) int {
	// fmt hands numbers and strings, which format themselves, the verb and
	// its state directly; but not %T and %p, which it does itself, nor %w,
	// a bad verb outside fmt.Errorf.
	if f, ok := arg.(fmt.Formatter); ok && !strings.ContainsRune("Tpw", sp.verb) {
		st := countingState{sp: sp}
		f.Format(&st, sp.verb)
		return st.n
	}
	// A verb that fmt would read as a flag, width, precision or index
	// cannot be written in a format; it is a bad verb for any other value,
	// as is 'z', whose text has the same size.
	if strings.ContainsRune("#0+- 123456789.*[", sp.verb) {
		other := *sp
		other.verb = 'z'
		var w countingWriter
		fmt.Fprintf(&w, other.String(), arg)
		return int(w)
	}
	var w countingWriter
	fmt.Fprintf(&w, sp.String(), arg)
	return int(w)
}

// countingWriter counts the bytes written to it and keeps none.
type countingWriter int

func (w *countingWriter) Write(p []byte) (int, error) {
	*w += countingWriter(len(p))
	return len(p), nil
}

// countingState is the fmt.State of a directive: it answers as fmt's own
// state does, and counts the bytes written to it.
type countingState struct {
	sp *fmtSpec
	n  int
}

func (st *countingState) Write(p []byte) (int, error) {
	st.n += len(p)
	return len(p), nil
}

func (st *countingState) Width() (int, bool)     { return st.sp.wid, st.sp.widPresent }
func (st *countingState) Precision() (int, bool) { return st.sp.prec, st.sp.precPresent }

func (st *countingState) Flag(c int) bool {
	switch c {
	case '-':
		return st.sp.minus
	case '+':
		return st.sp.plus || st.sp.plusV
	case '#':
		return st.sp.sharp || st.sp.sharpV
	case ' ':
		return st.sp.space
	case '0':
		return st.sp.zero
	}
	return false
}

// parseArgNumber reads an argument index such as [3] at the start of format,
// as fmt does: it returns the 0-based index, the bytes read and whether the
// index is well formed.
func parseArgNumber(format string) (index, wid int, ok bool) {
	if len(format) < 3 {
		return 0, 1, false
	}
	for i := 1; i < len(format); i++ {
		if format[i] == ']' {
			width, ok, newi := parseNum(format, 1, i)
			if !ok || newi != i {
				return 0, i + 1, false
			}
			return width - 1, i + 1, true
		}
	}
	return 0, 1, false
}

// parseNum is fmt's parsenum: the decimal number in s[start:end], which
// gives up (and skips to end) past a million.
func parseNum(s string, start, end int) (num int, isnum bool, newi int) {
	if start >= end {
		return 0, false, end
	}
	for newi = start; newi < end && '0' <= s[newi] && s[newi] <= '9'; newi++ {
		if num > 1e6 || num < -1e6 {
			return 0, false, end
		}
		num = num*10 + int(s[newi]-'0')
		isnum = true
	}
	return
}
