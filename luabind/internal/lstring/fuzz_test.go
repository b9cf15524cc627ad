package lstring

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	lua "github.com/yuin/gopher-lua"
)

// FuzzFind compares string.find, string.match and string.gsub with
// reference Lua 5.1's on small inputs. It skips the inputs where matching
// takes long (this package's matcher, interrupted by a context, is the
// judge), patterns with a NUL byte, which C Lua reads as their end, and
// patterns this package refuses as malformed: C Lua finds some of those
// errors only when its matcher reaches them, and runs "(" as a capture
// that never closes.
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
		{"THE (quick) fox", "%f[%a]%a+", 1, false},
	}
	for _, sd := range seeds {
		f.Add(sd.s, sd.p, sd.init, sd.plain)
	}
	mine := newBounded(f, Limits{})
	f.Fuzz(func(t *testing.T, s, p string, init int, plain bool) {
		if len(s) > 64 || len(p) > 24 {
			t.Skip("too long")
		}
		if strings.Contains(p, "\x00") {
			t.Skip("a NUL in the pattern")
		}
		if _, err := compile(p); err != nil {
			t.Skip("a malformed pattern")
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
		}
		S2, P2 := luaQuote(s), luaQuote(p)
		compareWithReference(t, fmt.Sprintf("C('find', string.find, %s, %s, %d, %t)\n", S2, P2, init, plain)+
			fmt.Sprintf("C('match', string.match, %s, %s, %d)\n", S2, P2, init)+
			fmt.Sprintf("C('gsub', string.gsub, %s, %s, '<%%0>')\n", S2, P2))
	})
}
