package luabind

import (
	"errors"
	"io"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/luahost/luahost/runtime"
)

// FuzzPlainRoundTrip evaluates Lua source (meant to be a table
// constructor) in a sandboxed state and copies the value out and in
// again: toPlain -> fromPlain -> toPlain gives equal plain data, and
// runtime.Plain leaves it unchanged (it is canonical). A value that is
// not plain data is refused with runtime.ErrNotPlain, never a panic.
func FuzzPlainRoundTrip(f *testing.F) {
	for _, seed := range []string{
		`{}`,
		`{1, 2, 3}`,
		`{a = 1, b = {c = "x", d = {true, false}}}`,
		`{[1.5] = true, [0] = "zero", [-1] = -1, [1e300] = 1/0}`,
		`{x = 0/0, y = -0, z = -1/0}`,
		`{[true] = 1, [false] = {}}`,
		`{"a\0b", "\255\254", ("x"):rep(1000)}`,
		`{{{{{{{{{{{{{{{{{{{{}}}}}}}}}}}}}}}}}}}}`,
		`{1, nil, 3, n = 3}`,
		`{print}`,
		`{co = coroutine.create(print)}`,
		`(function() local t = {} t.t = t return t end)()`,
		`(function() local s = {} return {s, s, {s}} end)()`,
		`(function() local t = {} for i = 1, 70 do t = {t} end return t end)()`,
		`{[{}] = 1}`,
		`setmetatable({}, {__index = function() error("no") end})`,
		`"just a string"`,
		`42`,
		`nil`,
	} {
		f.Add(seed)
	}
	w := newWorld(f, withBudget(50*time.Millisecond, 64<<20), func(_ *runtime.Options, o *Options) {
		o.Stdout, o.Log = io.Discard, io.Discard
	})
	s, err := w.h.Load("helper/empty")
	require.NoError(f, err)
	st := s.st
	f.Fuzz(func(t *testing.T, src string) {
		L := st.L
		fn, err := L.Load(strings.NewReader("return "+src), "=fuzz")
		if err != nil {
			return
		}
		L.Push(fn)
		if err := st.pcall(0, 1, kindChunk, "chunk"); err != nil {
			return
		}
		v := L.Get(-1)
		L.Pop(1)
		p1, err := toPlain(v, "v")
		if err != nil {
			require.True(t, errors.Is(err, runtime.ErrNotPlain), "%v", err)
			return
		}
		p2, err := toPlain(st.fromPlain(p1), "v")
		require.NoError(t, err)
		require.True(t, plainEqual(p1, p2), "round trip:\n%s\n%s", runtime.FormatPlain(p1), runtime.FormatPlain(p2))
		p3, err := runtime.Plain(p1)
		require.NoError(t, err)
		require.True(t, plainEqual(p1, p3), "not canonical:\n%s\n%s", runtime.FormatPlain(p1), runtime.FormatPlain(p3))
	})
}

// plainEqual compares plain data; tables compare as sets of fields, and
// NaN equals NaN.
func plainEqual(a, b any) bool {
	ta, aok := a.(*runtime.Table)
	tb, bok := b.(*runtime.Table)
	if aok != bok {
		return false
	}
	if !aok {
		fa, aNum := a.(float64)
		fb, bNum := b.(float64)
		if aNum && bNum && math.IsNaN(fa) && math.IsNaN(fb) {
			return true
		}
		return a == b
	}
	if len(ta.Fields) != len(tb.Fields) {
		return false
	}
	for _, f := range ta.Fields {
		found := false
		for _, g := range tb.Fields {
			if plainEqual(f.Key, g.Key) {
				found = plainEqual(f.Value, g.Value)
				break
			}
		}
		if !found {
			return false
		}
	}
	return true
}

// FuzzLoad feeds arbitrary source to the chunk cache and to Check (which
// also runs the chunk in the sandbox, under a budget): neither panics, and
// every failure is a *LoadError whose bounded message starts with the
// file's name.
func FuzzLoad(f *testing.F) {
	for _, dir := range []string{"testdata/scripts/*/*.lua", "testdata/reload/*.lua"} {
		files, err := filepath.Glob(dir)
		require.NoError(f, err)
		for _, file := range files {
			src, err := os.ReadFile(file)
			require.NoError(f, err)
			f.Add(src)
		}
	}
	for _, seed := range []string{
		"", "return {", "\x1bLuaQ\x00", "return {onUpdate = 5}", "while true do end",
		"local t = {} t[67108863] = true return {t = t}", "return 1 +", "goto x", "return {]]",
		"--[[ unterminated", "return \"\\300\"", "return '\\z'", "local a <const> = 1",
		"return {" + strings.Repeat("{", 300) + strings.Repeat("}", 300) + "}",
		"return " + strings.Repeat("(", 1000) + "1" + strings.Repeat(")", 1000),
		"error(setmetatable({}, {__tostring = function() error('x') end}))",
	} {
		f.Add([]byte(seed))
	}
	dir := f.TempDir()
	w := newWorld(f, withBudget(50*time.Millisecond, 64<<20), func(_ *runtime.Options, o *Options) {
		o.Dir, o.Stdout, o.Log = dir, io.Discard, io.Discard
	})
	file := filepath.ToSlash(filepath.Join(dir, "fuzz.lua"))
	f.Fuzz(func(t *testing.T, src []byte) {
		err := w.h.chunks.Precompile("fuzz", "fuzz.lua", src)
		if err != nil {
			var le *LoadError
			require.True(t, errors.As(err, &le), "%T %v", err, err)
			require.True(t, strings.HasPrefix(le.Message, "fuzz.lua"), le.Message)
		}
		require.NoError(t, os.WriteFile(filepath.Join(dir, "fuzz.lua"), src, 0o644))
		err = w.h.Check("fuzz")
		if err != nil {
			var le *LoadError
			require.True(t, errors.As(err, &le), "%T %v", err, err)
			require.True(t, strings.HasPrefix(le.Message, file), le.Message)
			require.Less(t, len(le.Message), 1024)
		}
	})
}
