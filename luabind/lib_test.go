package luabind

import (
	"os"
	"path/filepath"
	goruntime "runtime"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	lua "github.com/yuin/gopher-lua"

	"github.com/luahost/luahost/runtime"
)

// runOnCreate runs code as the onCreate of a script in a fresh host with
// the given budget, and returns what it printed, the errors reported and
// the bytes the process allocated meanwhile.
func runOnCreate(t *testing.T, code string, budget time.Duration) ([]string, []error, uint64) {
	t.Helper()
	dir := t.TempDir()
	src := "return { onCreate = function(self, ctx)\n" + code + "\nend }\n"
	require.NoError(t, os.WriteFile(filepath.Join(dir, "case.lua"), []byte(src), 0o644))
	w := newWorld(t, func(_ *runtime.Options, o *Options) {
		o.Dir = dir
		o.Budget = budget
	})
	var before, after goruntime.MemStats
	goruntime.ReadMemStats(&before)
	w.spawn("", "case")
	goruntime.ReadMemStats(&after)
	w.h.Flush()
	return w.lines(), w.errs, after.TotalAlloc - before.TotalAlloc
}

// TestBuiltinsBounded runs the builtins whose cost grows with their input
// on hostile input (each must refuse with its error, without allocating
// the result) and on large legitimate input (each must succeed under the
// default memory limit). Building the input under the race detector on a
// loaded machine can take longer than a budget, so the cases run with a
// budget of a second; TestBuiltinsInterruptible checks the budget, and
// BenchmarkTableConcat and BenchmarkUnpack measure the calls themselves
// ("Memory" and "Builtins").
func TestBuiltinsBounded(t *testing.T) {
	const mib = 1 << 20
	tests := []struct {
		name     string
		code     string
		want     string
		maxAlloc uint64
	}{
		{
			name: "table.concat of 300 copies of 16 MiB",
			code: `local s = string.rep("x", 16 * 2^20) local t = {}
				for i = 1, 300 do t[i] = s end
				print(pcall(table.concat, t))`,
			want:     "false\ttable.concat: result too large (limit 16777216 bytes)",
			maxAlloc: 40 * mib,
		},
		{
			name:     "string.byte of 262,000 bytes",
			code:     `print(pcall(string.byte, ("x"):rep(262000), 1, -1))`,
			want:     "false\tstack overflow (string slice too long)",
			maxAlloc: 4 * mib,
		},
		{
			name:     "os.date of 2^22 %c",
			code:     `print(pcall(os.date, ("%c"):rep(2^22)))`,
			want:     "false\tos.date: result too large (limit 16777216 bytes)",
			maxAlloc: 96 * mib,
		},
		{
			name:     "unpack of a huge range",
			code:     `print(pcall(unpack, {}, 1, 1e8))`,
			want:     "false\ttoo many results to unpack",
			maxAlloc: mib,
		},
		{
			name:     "debug.traceback from a very negative level",
			code:     `print((debug.traceback("m", -1e9):gsub("\n.*", "")))`,
			want:     "m",
			maxAlloc: mib,
		},
		{
			name:     "string.format of a huge result",
			code:     `local s = ("x"):rep(2^20) print(pcall(string.format, ("%s"):rep(20), s, s, s, s, s, s, s, s, s, s, s, s, s, s, s, s, s, s, s, s))`,
			want:     "false\tstring.format: result too large (limit 16777216 bytes)",
			maxAlloc: 4 * mib,
		},
		{
			name:     "table.concat of 100,000 short strings",
			code:     `local t = {} for i = 1, 100000 do t[i] = "ab" end print(#table.concat(t, "", 1, 100000))`,
			want:     "200000",
			maxAlloc: 32 * mib,
		},
		{
			name:     "table.concat of 65,535 strings with a separator",
			code:     `local t = {} for i = 1, 65535 do t[i] = "x" end print(#table.concat(t, ", "))`,
			want:     "196603",
			maxAlloc: 16 * mib,
		},
		{
			name:     "table.concat of 15,000 strings",
			code:     `local t = {} for i = 1, 15000 do t[i] = tostring(i) end print(#table.concat(t, " "))`,
			want:     "78893",
			maxAlloc: 8 * mib,
		},
		{
			name:     "unpack of 5,000 values",
			code:     `local t = {} for i = 1, 5000 do t[i] = i end print(select("#", unpack(t)), (select(5000, unpack(t))))`,
			want:     "5000\t5000",
			maxAlloc: 8 * mib,
		},
		{
			name:     "string.byte of 8,000 bytes",
			code:     `print(select("#", string.byte(("x"):rep(8000), 1, -1)))`,
			want:     "8000",
			maxAlloc: 4 * mib,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out, errs, alloc := runOnCreate(t, tt.code, time.Second)
			require.Empty(t, errs)
			assert.Equal(t, []string{tt.want}, out)
			assert.LessOrEqual(t, alloc, tt.maxAlloc, "bytes allocated")
		})
	}
}

// TestBuiltinsInterruptible checks that a single call of a builtin that
// runs long is stopped by the callback's budget: gopher-lua checks the
// budget only between instructions, so these poll it themselves.
func TestBuiltinsInterruptible(t *testing.T) {
	tests := []struct {
		name string
		code string
	}{
		{"table.sort of many strings", `local t = {} for i = 1, 65535 do t[i] = tostring((i * 7919) % 65535) end
			for round = 1, 100 do table.sort(t) table.sort(t, nil) end`},
		{"table.insert at the front of a long array", `local t = {} for i = 1, 65535 do t[i] = i end
			for round = 1, 100000 do table.insert(t, 1, round) table.remove(t, 1) end`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, errs, _ := runOnCreate(t, tt.code, 30*time.Millisecond)
			require.Len(t, errs, 1)
			assert.ErrorIs(t, errs[0], ErrBudget)
		})
	}
}

// BenchmarkTableConcat measures table.concat of 100,000 short strings.
func BenchmarkTableConcat(b *testing.B) {
	benchChunk(b, `local t = {} for i = 1, 100000 do t[i] = "ab" end return function() return table.concat(t, ",", 1, 100000) end`)
}

// BenchmarkUnpack measures unpack of 5,000 values.
func BenchmarkUnpack(b *testing.B) {
	benchChunk(b, `local t = {} for i = 1, 5000 do t[i] = i end return function() return select("#", unpack(t)) end`)
}

// BenchmarkStringFormat measures string.format of a few directives.
func BenchmarkStringFormat(b *testing.B) {
	benchChunk(b, `return function() return string.format("%5.2f %d %s %q", 3.14159, 42, "hi", "a\n") end`)
}

// benchChunk runs src in a sandboxed state; the function it returns is
// called once per iteration.
func benchChunk(b *testing.B, src string) {
	w := newWorld(b, withBudget(-1, 0))
	L := w.h.newSandbox()
	defer L.Close()
	require.NoError(b, L.DoString(src))
	fn := L.Get(-1)
	L.Pop(1)
	b.ReportAllocs()
	for b.Loop() {
		L.Push(fn)
		L.Call(0, 0)
	}
}

// TestToNumber checks tonumber on the strings where C's strtod decides,
// against what reference Lua 5.1 (glibc) answers.
func TestToNumber(t *testing.T) {
	tests := []struct{ in, want string }{
		{"1e5", "100000"}, {"1E-2", "0.01"}, {" 12 ", "12"}, {"0x1F", "31"}, {"0X1f", "31"},
		{"0x", "nil"}, {"0x.8", "0.5"}, {"0x1p4", "16"}, {".5", "0.5"}, {"5.", "5"}, {"-.5", "-0.5"},
		{"+5", "5"}, {"- 5", "nil"}, {"1e", "nil"}, {"1e+", "nil"}, {".e1", "nil"}, {".", "nil"},
		{"", "nil"}, {" ", "nil"}, {"inf", "inf"}, {"-INF", "-inf"}, {"infinity", "inf"}, {"1 2", "nil"},
		{"10x", "nil"}, {"0x10x", "nil"}, {"1e400", "inf"}, {"-1e400", "-inf"}, {"1e-400", "0"},
		{"\t\n5\v\f\r", "5"}, {"5\x00junk", "5"}, {"00012", "12"}, {"1.5e+3", "1500"}, {"0x1P-1", "0.5"},
		{"1_000", "nil"}, {"0b101", "nil"}, {"1,5", "nil"},
	}
	w := newWorld(t)
	L := w.h.newSandbox()
	defer L.Close()
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			L.SetGlobal("s", lua.LString(tt.in))
			require.NoError(t, L.DoString(`result = tostring(tonumber(s))`))
			assert.Equal(t, tt.want, L.GetGlobal("result").String())
		})
	}
}
