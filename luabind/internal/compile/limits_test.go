package compile

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// lines returns n lines made by format, each given its index.
func lines(n int, format string) string {
	var b strings.Builder
	for i := range n {
		fmt.Fprintf(&b, format+"\n", i)
	}
	return b.String()
}

// joined returns n items made by format, joined by sep.
func joined(n int, format, sep string) string {
	items := make([]string, n)
	for i := range items {
		items[i] = fmt.Sprintf(format, i)
	}
	return strings.Join(items, sep)
}

// TestCompileLimits checks the limits of one function: Lua 5.1's locals
// and upvalues, refused with its messages at the line that passes them
// (the messages and lines were taken from lua5.1), and the constants'
// search work, which keeps compiling fast: a refused chunk is refused at
// once, and what passes compiles quickly.
func TestCompileLimits(t *testing.T) {
	tests := []struct {
		name string
		src  string
		want string // the error, "" for none
	}{
		{"200 locals", lines(200, "local a%d = 1"), ""},
		{"201 locals", lines(201, "local a%d = 1"), "line 201: main function has more than 200 local variables"},
		{"a call of 199 arguments", "return f(" + joined(199, "%d", ", ") + ")", ""},
		{"a call of 198 arguments beside 2 locals", "local a, b = 1, 2\nreturn f(" + joined(198, "%d", ", ") + ")",
			"line 2: function or expression too complex (a call of 198 arguments beside 2 locals needs more than 200 registers)"},
		{"a keyed field after 50 items, movable", "local a = 1\nreturn {" + joined(50, "%d", ", ") + ", x = a, y = 's'}", ""},
		{"a keyed field after 50 items, with a side effect", "local a = 1\nreturn {" + joined(50, "%d", ", ") + ", x = a + 1}",
			"line 2: table constructor has a keyed field right after a multiple of 50 positional items: gopher-lua stores the items wrongly there; move the keyed field before them"},
		{"a numeric key after 50 items", "return {" + joined(50, "%d", ", ") + ", [2] = 'k'}",
			"line 1: table constructor has a keyed field right after a multiple of 50 positional items: gopher-lua stores the items wrongly there; move the keyed field before them"},
		{"a call last after 50 items and a key", "local k = 1\nreturn {k = k + 1, " + joined(50, "%d", ", ") + ", f()}",
			"line 2: table constructor ends in a call or ... after 50 positional items with a keyed field: gopher-lua stores its values at [1]; fill the table after it is made"},
		{"a constructor at the most positional items", "return {" + strings.Repeat("1,", MaxPositional-1) + "1, a = 2}", ""},
		{"a constructor past the most positional items", "local t = 1\nreturn {" + strings.Repeat("1,", MaxPositional) + "1}",
			"line 2: table constructor has more than 25550 positional items: split it, or fill the table in a loop"},
		{"a for loop's hidden locals", lines(197, "local a%d = 1") + "for i = 1, 2 do end\n",
			"line 198: main function has more than 200 local variables"},
		{"locals of closed blocks", lines(150, "do local a%d = 1 end") + lines(150, "local b%d = 1"), ""},
		{"201 parameters", "local x = 1\nlocal function f(" + joined(201, "p%d", ", ") + ")\nend\n",
			"line 2: function at line 2 has more than 200 local variables"},
		{"60 upvalues", lines(60, "local a%d = 1") + "local function g()\nreturn " + joined(60, "a%d", " + ") + "\nend\n", ""},
		{"61 upvalues through a function", lines(61, "local a%d = 1") + "local function g()\nreturn function()\nreturn " + joined(61, "a%d", " +\n") + "\nend\nend\n",
			"line 124: function at line 62 has more than 60 upvalues"},
		{"300 upvalues", lines(150, "local a%d = 1") + "local function g()\n" + lines(150, "local b%d = 1") + "return function()\nreturn " + joined(150, "a%d", " + ") + " + " + joined(150, "b%d", " + ") + "\nend\nend\n",
			"line 303: function at line 151 has more than 60 upvalues"},
		{"5,000 distinct constants", "return {" + joined(5000, "%d", ", ") + "}\n", ""},
		{"2,000 constants used eight times", strings.Repeat("local t = {"+joined(2000, "%d", ", ")+"}\n", 8), ""},
		{"one constant used 200,000 times", "local x\n" + strings.Repeat("x = 1\n", 200_000), ""},
		{"80,000 distinct numbers", "return {" + joined(80_000, "[%d] = true", ",\n") + "}\n", "line 5793: too many constants to compile"},
		{"25,000 distinct strings", "return {" + joined(25_000, "'s%d'", ",\n") + "}\n", "too many constants to compile"},
		{"many small functions", strings.Repeat("local function f() return {"+joined(1000, "%d", ", ")+"} end\n", 20), ""},
		{"spread over functions", strings.Repeat("local function f() return {"+joined(4000, "%d", ", ")+"} end\n", 40), "too many constants to compile"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			start := time.Now()
			_, err := Compile(tt.src, "c", 1<<20)
			took := time.Since(start)
			if tt.want == "" {
				require.NoError(t, err)
			} else {
				require.Error(t, err)
				var se *SyntaxError
				require.ErrorAs(t, err, &se)
				assert.Contains(t, err.Error(), tt.want)
			}
			// A guard against a search that grows with the chunk (one
			// of these took 34 s before the bound), not a measure of
			// speed: BenchmarkCompileLimits measures it.
			assert.Less(t, took, 20*time.Second, "compiling is bounded")
		})
	}
}

// BenchmarkCompileLimits compiles the largest chunks TestCompileLimits
// passes: a constant used 200,000 times and 5,000 distinct constants.
func BenchmarkCompileLimits(b *testing.B) {
	for _, bc := range []struct{ name, src string }{
		{"one constant used 200,000 times", "local x\n" + strings.Repeat("x = 1\n", 200_000)},
		{"5,000 distinct constants", "return {" + joined(5000, "%d", ", ") + "}\n"},
	} {
		b.Run(bc.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := Compile(bc.src, "c", 1<<20); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
