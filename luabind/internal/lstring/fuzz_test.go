package lstring

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	lua "github.com/yuin/gopher-lua"
)

// deliberateErrors are the errors this package raises where gopher-lua does
// not (see the package documentation).
var deliberateErrors = []string{
	errEndsWithPercent, errBalanceArgs, errFrontierSet, errTooManyCaptures,
	"pattern too complex",
}

// FuzzFind compares string.find, string.match and string.gsub with
// gopher-lua's on small inputs. It skips the inputs where gopher-lua
// panics, where this package deliberately differs, and where matching takes
// long (this package's matcher, interrupted by a context, is the judge, so
// that gopher-lua's is never left running).
func FuzzFind(f *testing.F) {
	seeds := []struct {
		s, p  string
		init  int
		plain bool
	}{
		{"hello world", "o w", 1, false},
		{"hello world", "(o)(.)", 1, false},
		{"hello world", "l+", -3, false},
		{"a.b", ".", 2, true},
		{"key = val", "^(%w+)%s*=%s*(%w+)$", 1, false},
		{"(a(b)c)", "%b()", 1, false},
		{"abcabc", "(a)(b)c%1%2", 1, false},
		{"xyz", "[^%l]", 1, false},
		{"a-b]c", "[]a-]+", 1, false},
		{"  x  ", "^%s*(.-)%s*$", 1, false},
		{"aaa", "()a*()", 2, false},
		{"abc", "[a-%z]", 1, false},
		{"ab", "a-$", 0, false},
	}
	for _, sd := range seeds {
		f.Add(sd.s, sd.p, sd.init, sd.plain)
	}
	orig := newOriginal(f)
	mine := newBounded(f, Limits{})
	f.Fuzz(func(t *testing.T, s, p string, init int, plain bool) {
		if len(s) > 64 || len(p) > 24 {
			t.Skip("too long")
		}
		if strings.Contains(p, "%f") {
			t.Skip("a frontier, which gopher-lua reads as the letter f")
		}
		S, P := lua.LString(s), lua.LString(p)
		calls := []struct {
			name string
			args []lua.LValue
		}{
			{"find", []lua.LValue{S, P, lua.LNumber(init), lua.LBool(plain)}},
			{"match", []lua.LValue{S, P, lua.LNumber(init)}},
			{"gsub", []lua.LValue{S, P, lua.LString("<%0>")}},
		}
		for _, c := range calls {
			ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
			mine.SetContext(ctx)
			got := callString(mine, c.name, c.args...)
			mine.RemoveContext()
			cancel()
			if strings.Contains(got.Err, context.DeadlineExceeded.Error()) {
				t.Skip("slow pattern")
			}
			want := callString(orig, c.name, c.args...)
			if strings.HasPrefix(want.Err, "runtime error") {
				t.Skip("gopher-lua panics")
			}
			if got.Err != want.Err && isDeliberate(got.Err, p) {
				t.Skip("a deliberate difference: " + got.Err)
			}
			assert.Equal(t, want, got, "string.%s%s", c.name, luaArgs(c.args))
		}
	})
}

// isDeliberate reports whether msg, an error of this package for pattern p,
// is one it raises where gopher-lua does not.
func isDeliberate(msg, p string) bool {
	for _, e := range deliberateErrors {
		if strings.HasSuffix(msg, e) {
			return true
		}
	}
	return strings.HasSuffix(msg, "invalid capture index") && refersToOpenCapture(p)
}

// refersToOpenCapture reports whether the pattern p has a back-reference to
// a capture that is still open where it appears, such as "((a)%1)".
func refersToOpenCapture(p string) bool {
	pat, err := compile(p)
	if err != nil {
		return false
	}
	for i := pat.start; i < pat.end; {
		switch p[i] {
		case '%':
			switch d := p[i+1]; {
			case '1' <= d && d <= '9':
				k := int(d - '1')
				if k < pat.ncap && int(pat.open[k]) < i && int(pat.close[k]) > i {
					return true
				}
				i += 2
			case d == 'b':
				i += 4
			default:
				i += 2
			}
		case '[':
			i = setEnd(p, i)
		default:
			i++
		}
	}
	return false
}
