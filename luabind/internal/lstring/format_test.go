package lstring

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	lua "github.com/yuin/gopher-lua"
)

// TestFormat checks string.format against what reference Lua 5.1 (with
// glibc) prints for the same calls.
func TestFormat(t *testing.T) {
	tests := []struct {
		code string
		want string
	}{
		{`string.format("%5.1s|%-5d|%+.3f|%#o|%#x|% d", "abc", 3, 1.5, 8, 255, 4)`, "    a|3    |+1.500|010|0xff| 4"},
		{`string.format("%d %s", "12", 12)`, "12 12"},
		{`string.format("%f %e %g %5.1f", 1/0, -1/0, 1/0, 1/0)`, "inf -inf inf   inf"},
		{`string.format("%E %+f", 1/0, 1/0)`, "INF +inf"},
		{`string.format("%c", 256 + 65)`, "A"},
		{`string.format("%x %u %o", -1, -1, -1)`, "ffffffffffffffff 18446744073709551615 1777777777777777777777"},
		{`string.format("%i %d %d", 3, 3.7, -3.7)`, "3 3 -3"},
		{`string.format("%g %g %.3g %g", 1e20, 123456789, 2/3, 0.0001)`, "1e+20 1.23457e+08 0.667 0.0001"},
		{`string.format("%5.2f|%e|%X", 3.14159, 12345.678, 255)`, " 3.14|1.234568e+04|FF"},
		{`string.format("%05d|%+d|% d|%-6d|", 42, 42, 42, 42)`, "00042|+42| 42|42    |"},
		{`string.format("%#x %#o", 0, 0)`, "0 0"},
		{`string.format("%.3s|%5s|%-5s|", "abcdef", "ab", "ab")`, "abc|   ab|ab   |"},
		{`string.format("%.2s", "\200\201\202")`, "\xc8\xc9"},
		{`string.format("%q", "a\"b\\c\nd\re\0f")`, "\"a\\\"b\\\\c\\\nd\\re\\000f\""},
		{`string.format("%q", 12)`, `"12"`},
		{`string.format("100%%")`, "100%"},
		{`#string.format("%99.99f", 1e300)`, "401"},
		{`#string.format("%s", string.rep("x", 200))`, "200"},
	}
	L := newBounded(t, Limits{})
	for _, tt := range tests {
		t.Run(tt.code, func(t *testing.T) {
			got := runChunk(L, "return tostring("+tt.code+")")
			require.Empty(t, got.Err)
			assert.Equal(t, []string{render(lua.LString(tt.want))}, got.Values)
		})
	}
}

// TestFormatChecks checks the format directives that string.format rejects
// and some it accepts, with reference Lua 5.1's messages.
func TestFormatChecks(t *testing.T) {
	tests := []struct {
		format  string
		wantErr string
	}{
		{"%99d", ""},
		{"%.99f", ""},
		{"%99.99f", ""},
		{"%-+ #0d", ""},
		{"%100d", "invalid format (width or precision too long)"},
		{"%.100f", "invalid format (width or precision too long)"},
		{"%5.100f", "invalid format (width or precision too long)"},
		{"%099d", ""},
		{"%0099d", ""},
		{"%00099d", ""},
		{"%000000d", "invalid format (repeated flags)"},
		{"%-----d", ""},
		{"%------d", "invalid format (repeated flags)"},
		{"%#-+ 00d", "invalid format (repeated flags)"},
		{"%100d %d", "invalid format (width or precision too long)"},
		{"%y", "invalid option '%y' to 'format'"},
		{"%*d", "invalid option '%*' to 'format'"},
		{"%[1]d", "invalid option '%[' to 'format'"},
		{"%5%", "invalid option '%%' to 'format'"},
		{"%v", "invalid option '%v' to 'format'"},
		{"%", "invalid option '%' to 'format'"},
		{"%d %d", "(no value)"},
	}
	L := newBounded(t, Limits{})
	for _, tt := range tests {
		t.Run(tt.format, func(t *testing.T) {
			got := callString(L, "format", lua.LString(tt.format), lua.LNumber(1))
			if tt.wantErr == "" {
				require.Empty(t, got.Err)
				return
			}
			assert.Contains(t, got.Err, tt.wantErr)
		})
	}
}

// FuzzFormat checks that string.format never panics and never returns
// more than its limit, whatever the format and arguments.
func FuzzFormat(f *testing.F) {
	for _, format := range []string{
		"%d", "%5.2f|%-8s|%q", "%x %X %#x % x", "%c", "%3.1s", "%99s", "%-+ #0d", "%",
		"%d %d %d %d %d %d", "%5%", "%é", "\xff%\xff", "%10.3q", "%08.3e", "%.f", "%99.99g",
	} {
		f.Add(format, 3.25, "héllo\n\x01\xff")
	}
	L := lua.NewState(lua.Options{SkipOpenLibs: true})
	f.Cleanup(L.Close)
	const limit = 1 << 12
	lib := &library{maxSize: limit, number: lua.LNumber.String}
	fn := L.NewFunction(lib.formatBounded)
	f.Fuzz(func(t *testing.T, format string, x float64, s string) {
		err := L.CallByParam(lua.P{Fn: fn, NRet: 1, Protect: true},
			lua.LString(format), lua.LNumber(x), lua.LString(s), lua.LNumber(x))
		if err != nil {
			return
		}
		out := L.Get(-1)
		L.Pop(1)
		assert.LessOrEqual(t, len(out.String()), limit, "format %q", format)
	})
}
