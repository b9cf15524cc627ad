package luaerr

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestOverrun: the report of a stopped callback names where, which limit
// and which callback.
func TestOverrun(t *testing.T) {
	assert.Equal(t, "scripts/x.lua:7: exceeded its 10M-instruction budget in onUpdate", Overrun("scripts/x.lua:7", "10M-instruction budget", "onUpdate"))
}

// TestBound: a message past the bound is cut on a rune boundary and says
// how long it was.
func TestBound(t *testing.T) {
	assert.Equal(t, "short", Bound("short"))
	long := strings.Repeat("é", MaxMessage)
	got := Bound(long)
	assert.True(t, strings.HasSuffix(got, "... (1024 bytes)"), got)
	assert.LessOrEqual(t, len(got), MaxMessage+len("... (1024 bytes)"))
	assert.True(t, strings.HasPrefix(got, "é"))
}

// TestLocation: a "file:line:" prefix is read; anything else is not one.
func TestLocation(t *testing.T) {
	for _, tt := range []struct {
		msg  string
		file string
		line int
		ok   bool
	}{
		{"scripts/a.lua:12: boom", "scripts/a.lua", 12, true},
		{"boom: 12", "", 0, false},
		{" a.lua:3: x", "", 0, false},
	} {
		f, l, ok := Location(tt.msg)
		assert.Equal(t, tt.ok, ok, tt.msg)
		assert.Equal(t, tt.file, f, tt.msg)
		assert.Equal(t, tt.line, l, tt.msg)
	}
}

// TestWording: gopher-lua's loose wordings become reference Lua's.
func TestWording(t *testing.T) {
	assert.Equal(t, "x.lua:1: attempt to index a nil value", LuaWording("x.lua:1: attempt to index a non-table object(nil) with key 'k'"))
	assert.Equal(t, "attempt to perform arithmetic on a nil value", LuaWording("cannot perform add operation between number and nil"))
}

// TestQuote: a script's string is quoted on one line, escapes included,
// and cut to MaxQuoted bytes on a rune boundary with its size.
func TestQuote(t *testing.T) {
	tests := []struct{ name, in, want string }{
		{"short", "reload", `"reload"`},
		{"control", "a\nb\x1b[31m", `"a\nb\x1b[31m"`},
		{"long", strings.Repeat("x", 1<<20), `"` + strings.Repeat("x", MaxQuoted) + `"... (1048576 bytes)`},
		{"rune boundary", strings.Repeat("é", MaxQuoted), `"` + strings.Repeat("é", MaxQuoted/2) + `"... (128 bytes)`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, Quote(tt.in))
		})
	}
}
