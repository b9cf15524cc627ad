package lstring

import (
	"context"
	goruntime "runtime"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestHostile runs scripts meant to hang the host or blow up its memory, and
// checks that each ends quickly, with an error, having allocated little.
func TestHostile(t *testing.T) {
	const mib = 1 << 20
	tests := []struct {
		name     string
		code     string
		lim      Limits
		deadline time.Duration // 0: no context
		wantErr  string
		maxAlloc uint64 // bytes allocated at most, the subject included
	}{
		{
			name:     "pathological find",
			code:     `string.find(string.rep("a", 50000), ".-.-.-.-.-.-.-b")`,
			deadline: 20 * time.Millisecond,
			wantErr:  "<string>:1: context deadline exceeded",
			maxAlloc: 4 * mib,
		},
		{
			name:     "pathological match",
			code:     `string.match(string.rep("a", 50000), "(.-)(.-)(.-)(.-)(.-)b")`,
			deadline: 20 * time.Millisecond,
			wantErr:  "context deadline exceeded",
			maxAlloc: 4 * mib,
		},
		{
			name:     "pathological gmatch",
			code:     `for w in string.gmatch(string.rep("a", 50000), ".-.-.-.-.-b") do end`,
			deadline: 20 * time.Millisecond,
			wantErr:  "context deadline exceeded",
			maxAlloc: 4 * mib,
		},
		{
			name:     "pathological gfind",
			code:     `for w in string.gfind(string.rep("a", 50000), ".-.-.-.-.-b") do end`,
			deadline: 20 * time.Millisecond,
			wantErr:  "context deadline exceeded",
			maxAlloc: 4 * mib,
		},
		{
			name:     "pathological gsub",
			code:     `string.gsub(string.rep("a", 50000), ".-.-.-.-.-b", "")`,
			deadline: 20 * time.Millisecond,
			wantErr:  "context deadline exceeded",
			maxAlloc: 4 * mib,
		},
		{
			name:     "pathological method in a coroutine",
			code:     `coroutine.wrap(function() return (string.rep("a", 50000)):find(".-.-.-.-.-.-.-b") end)()`,
			deadline: 20 * time.Millisecond,
			wantErr:  "context deadline exceeded",
			maxAlloc: 4 * mib,
		},
		{
			name:     "unbalanced %b",
			code:     `string.find(string.rep("(", 300000), "%b()")`,
			deadline: 20 * time.Millisecond,
			wantErr:  "context deadline exceeded",
			maxAlloc: 4 * mib,
		},
		{
			name:     "back-references",
			code:     `string.find(string.rep("a", 200000), "(.-)%1%1b")`,
			deadline: 20 * time.Millisecond,
			wantErr:  "context deadline exceeded",
			maxAlloc: 4 * mib,
		},
		{
			name:     "long set",
			code:     `string.find(string.rep("a", 1e5), "[" .. string.rep("b", 1e5) .. "]*c")`,
			deadline: 20 * time.Millisecond,
			wantErr:  "context deadline exceeded",
			maxAlloc: 4 * mib,
		},
		{
			name:     "nested quantifiers",
			code:     `string.find(string.rep("a", 300), string.rep("a?", 300))`,
			wantErr:  "<string>:1: pattern too complex",
			maxAlloc: mib,
		},
		{
			name:     "many captures",
			code:     `string.find("x", string.rep("()", 100000))`,
			wantErr:  "<string>:1: too many captures",
			maxAlloc: 2 * mib,
		},
		{
			name: "rep",
			code: `string.rep("x", 1e10)`,
			// 1e10 as Lua 5.1's C int: its low 32 bits.
			wantErr:  "<string>:1: string.rep: result too large (1410065408 bytes, limit 16777216)",
			maxAlloc: mib,
		},
		{
			name:     "rep of the largest count",
			code:     `string.rep("xyz", 2^31 - 1)`,
			wantErr:  "<string>:1: string.rep: result too large (6442450941 bytes, limit 16777216)",
			maxAlloc: mib,
		},
		{
			name:     "rep as a method",
			code:     `local s = ("x"):rep(1e10)`,
			wantErr:  "string.rep: result too large",
			maxAlloc: mib,
		},
		{
			name:     "rep of a long string",
			code:     `string.rep(string.rep("x", 1e6), 17)`,
			wantErr:  "string.rep: result too large (17000000 bytes, limit 16777216)",
			maxAlloc: 4 * mib,
		},
		{
			name:     "format width",
			code:     `string.format("%099999999d", 1)`,
			wantErr:  "<string>:1: invalid format (width or precision too long)",
			maxAlloc: mib,
		},
		{
			name:     "format precision",
			code:     `string.format("%.9999999f", 1)`,
			wantErr:  "invalid format (width or precision too long)",
			maxAlloc: mib,
		},
		{
			name: "format amplification",
			code: `local s = string.rep("x", 1e6) local t = {}
				for i = 1, 1000 do t[i] = s end
				string.format(string.rep("%s", 1000), unpack(t))`,
			wantErr:  "<string>:3: string.format: result too large (limit 16777216 bytes)",
			maxAlloc: 4 * mib,
		},
		{
			name: "format amplification by quoting",
			code: `local s = string.rep("\n", 1e6) local t = {}
				for i = 1, 9 do t[i] = s end
				string.format(string.rep("%q", 9), unpack(t))`,
			wantErr:  "string.format: result too large",
			maxAlloc: 4 * mib,
		},
		{
			name:     "format of a large table",
			code:     `local t = {} for i = 1, 1e5 do t[i] = i end string.format("%d", t)`,
			wantErr:  "bad argument #2 to format (number expected, got table)",
			maxAlloc: 16 * mib,
		},
		{
			name:     "gsub amplification",
			lim:      Limits{MaxSize: mib},
			code:     `string.gsub(string.rep("a", 1e6), "", string.rep("x", 1000))`,
			wantErr:  "<string>:1: string.gsub: result too large (limit 1048576 bytes)",
			maxAlloc: 8 * mib,
		},
		{
			name:     "gsub amplification by function",
			lim:      Limits{MaxSize: mib},
			code:     `local y = string.rep("y", 1000) string.gsub(string.rep("a", 1e5), "a", function() return y end)`,
			wantErr:  "string.gsub: result too large",
			maxAlloc: 8 * mib,
		},
		{
			name:     "gsub amplification by table",
			lim:      Limits{MaxSize: mib},
			code:     `string.gsub(string.rep("a", 1e5), "a", {a = string.rep("y", 1000)})`,
			wantErr:  "string.gsub: result too large",
			maxAlloc: 8 * mib,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			L := newBounded(t, tt.lim)
			if tt.deadline > 0 {
				ctx, cancel := context.WithTimeout(context.Background(), tt.deadline)
				defer cancel()
				L.SetContext(ctx)
			}
			before := totalAlloc()
			start := time.Now()
			err := L.DoString(tt.code)
			elapsed := time.Since(start)
			allocated := totalAlloc() - before

			require.Error(t, err)
			assert.Contains(t, errMessage(err), tt.wantErr)
			assert.Less(t, elapsed, 500*time.Millisecond)
			assert.LessOrEqual(t, allocated, tt.maxAlloc, "bytes allocated")
		})
	}
}

// totalAlloc returns the bytes the process has allocated so far.
func totalAlloc() uint64 {
	var ms goruntime.MemStats
	goruntime.ReadMemStats(&ms)
	return ms.TotalAlloc
}

// TestContextCanceled checks that a canceled context stops a match with the
// context's own error.
func TestContextCanceled(t *testing.T) {
	L := newBounded(t, Limits{})
	ctx, cancel := context.WithCancel(context.Background())
	L.SetContext(ctx)
	go func() {
		time.Sleep(10 * time.Millisecond)
		cancel()
	}()
	err := L.DoString(`string.find(string.rep("a", 50000), ".-.-.-.-.-.-.-b")`)
	require.Error(t, err)
	assert.Equal(t, "<string>:1: context canceled", errMessage(err))
}

// TestLimits checks the size limit of rep, gsub and format, at and just
// past it, for the default and a small MaxSize.
func TestLimits(t *testing.T) {
	tests := []struct {
		name    string
		max     int
		code    string
		want    outcome
		wantErr string
	}{
		{name: "rep at the default limit", code: `return #string.rep("x", 16 * 2^20)`,
			want: outcome{Values: []string{"number:16777216"}}},
		{name: "rep past the default limit", code: `return string.rep("x", 16 * 2^20 + 1)`,
			wantErr: "<string>:1: string.rep: result too large (16777217 bytes, limit 16777216)"},
		{name: "negative MaxSize means the default", max: -1, code: `return #string.rep("x", 16 * 2^20)`,
			want: outcome{Values: []string{"number:16777216"}}},
		{name: "rep at a small limit", max: 10, code: `return string.rep("ab", 5)`,
			want: outcome{Values: []string{`"ababababab"`}}},
		{name: "rep past a small limit", max: 10, code: `return string.rep("ab", 6)`,
			wantErr: "<string>:1: string.rep: result too large (12 bytes, limit 10)"},
		{name: "gsub at a small limit", max: 10, code: `return string.gsub("abcde", "%w", "%0%0")`,
			want: outcome{Values: []string{`"aabbccddee"`, "number:5"}}},
		{name: "gsub past a small limit", max: 10, code: `return string.gsub("abcdef", "%w", "%0%0")`,
			wantErr: "<string>:1: string.gsub: result too large (limit 10 bytes)"},
		{name: "gsub that matches nothing returns a long subject", max: 10,
			code: `return string.gsub("abcdefghijklmnop", "x", "y")`,
			want: outcome{Values: []string{`"abcdefghijklmnop"`, "number:0"}}},
		{name: "format at a small limit", max: 10, code: `return string.format("%d%d", 12345, 67890)`,
			want: outcome{Values: []string{`"1234567890"`}}},
		{name: "format past a small limit", max: 10, code: `return string.format("%d%d%d", 12345, 67890, 1)`,
			wantErr: "<string>:1: string.format: result too large (limit 10 bytes)"},
		{name: "format of a string at a small limit", max: 10, code: `return string.format("%q", "abcdefgh")`,
			want: outcome{Values: []string{`"\"abcdefgh\""`}}},
		{name: "format of a string past a small limit", max: 10, code: `return string.format("%q", "abcdefghi")`,
			wantErr: "<string>:1: string.format: result too large (limit 10 bytes)"},
		{name: "format with extra arguments at a small limit", max: 10, code: `return string.format("%s%%", "abcdefghi", "abc")`,
			want: outcome{Values: []string{`"abcdefghi%"`}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			L := newBounded(t, Limits{MaxSize: tt.max})
			got := runChunk(L, tt.code)
			if tt.wantErr != "" {
				assert.Equal(t, outcome{Err: tt.wantErr}, got)
				return
			}
			assert.Equal(t, tt.want, got)
		})
	}
}
