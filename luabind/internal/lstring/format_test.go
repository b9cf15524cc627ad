package lstring

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	lua "github.com/yuin/gopher-lua"
)

// FuzzFormatSize checks the measures of formatSize against fmt.Sprintf, for
// formats that pass its checks: the exact size is the length of the result,
// and the bounds are bounds.
func FuzzFormatSize(f *testing.F) {
	for _, format := range []string{
		"%d", "%5.2f|%-8s|%q", "%x %X %#x % x", "%[2]s %[1]d", "%*d", "%.*f",
		"%v %+v %#v", "%T %p", "%c %U", "%3.1s", "%99s", "%-+ #0d", "%", "%!",
		"%[3]d", "%[x]d", "%.[2]d", "%d %d %d %d %d %d", "%5%", "%é", "\xff%\xff",
		"%10.3q", "% #x", "%#q", "%+q", "%08.3e", "%[1]*d", "%.f",
	} {
		f.Add(format, 3.25, "héllo\n\x01\xff")
	}
	L := lua.NewState()
	f.Cleanup(L.Close)
	table := L.NewTable()
	lib := &library{maxSize: 1 << 40}
	f.Fuzz(func(t *testing.T, format string, x float64, s string) {
		args := []lua.LValue{lua.LNumber(x), lua.LString(s), lua.LTrue, lua.LNil, table}
		var sizes [3]int
		measure := L.NewFunction(func(L *lua.LState) int {
			for mode := range sizes {
				sizes[mode] = lib.formatSize(L, format, args, sizeMode(mode))
			}
			return 0
		})
		if err := L.CallByParam(lua.P{Fn: measure, Protect: true}); err != nil {
			t.Skip("rejected: " + errMessage(err))
		}
		goArgs := make([]any, len(args))
		for i, a := range args {
			goArgs[i] = a
		}
		want := len(fmt.Sprintf(format, goArgs...))
		assert.Equal(t, want, sizes[exactSize], "exact size of %q", format)
		assert.LessOrEqual(t, sizes[lowerBound], want, "lower bound of %q", format)
		assert.GreaterOrEqual(t, sizes[upperBound], want, "upper bound of %q", format)
	})
}

// TestFormatChecks checks the format directives that string.format rejects
// and some it accepts.
func TestFormatChecks(t *testing.T) {
	tests := []struct {
		format  string
		wantErr string
	}{
		{"%99d", ""},
		{"%.99f", ""},
		{"%99.99f", ""},
		{"%-+ #0d", ""},
		{"%[1]5d", ""},
		{"%100d", "invalid format (width or precision too long)"},
		{"%.100f", "invalid format (width or precision too long)"},
		{"%5.100f", "invalid format (width or precision too long)"},
		{"%[1]100d", "invalid format (width or precision too long)"},
		{"%.[1]100d", "invalid format (width or precision too long)"},
		{"%099d", ""},
		{"%0099d", ""},
		{"%00099d", ""},
		{"%000000d", "invalid format (repeated flags)"},
		{"%-----d", ""},
		{"%------d", "invalid format (repeated flags)"},
		{"%#-+ 00d", "invalid format (repeated flags)"},
		{"%d %100d", "invalid format (width or precision too long)"},
	}
	L := newBounded(t, Limits{})
	for _, tt := range tests {
		t.Run(tt.format, func(t *testing.T) {
			got := callString(L, "format", lua.LString(tt.format), lua.LNumber(1))
			if tt.wantErr == "" {
				require.Empty(t, got.Err)
				return
			}
			assert.Equal(t, " "+tt.wantErr, got.Err)
		})
	}
}
