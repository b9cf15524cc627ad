package compile

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/require"
	lua "github.com/yuin/gopher-lua"
	"github.com/yuin/gopher-lua/parse"
)

// benchRewrite returns src compiled with the host's rewrite ("rewrite") or
// by gopher-lua alone ("vm"), as a function of a bare state.
func benchRewrite(b *testing.B, src string, rewrite bool) (*lua.LState, *lua.LFunction) {
	b.Helper()
	var proto *lua.FunctionProto
	var err error
	if rewrite {
		proto, err = Compile(src, "bench", 16<<20)
	} else {
		chunk, perr := parse.Parse(strings.NewReader(src), "bench")
		require.NoError(b, perr)
		proto, err = lua.Compile(chunk, "bench")
	}
	require.NoError(b, err)
	L := lua.NewState()
	b.Cleanup(L.Close)
	L.Push(L.NewFunctionFromProto(proto))
	L.Call(0, 1)
	return L, L.Get(-1).(*lua.LFunction)
}

// benchModes runs the function src returns, compiled by gopher-lua alone
// (vm) and through the rewrite, as two sub-benchmarks.
func benchModes(b *testing.B, src string) {
	for _, mode := range []string{"vm", "rewrite"} {
		b.Run(mode, func(b *testing.B) {
			L, fn := benchRewrite(b, src, mode == "rewrite")
			b.ReportAllocs()
			for b.Loop() {
				L.Push(fn)
				L.Call(0, 0)
			}
		})
	}
}

// BenchmarkConcat compares a chunk's .. compiled through the rewrite (a
// call of the bounded concatenation) with gopher-lua's own OP_CONCAT, on
// 1,000 concatenations a call: two short strings, a string and a number,
// and a chain of five.
func BenchmarkConcat(b *testing.B) {
	for _, bc := range []struct{ name, body string }{
		{"2strings", `local s = a .. b`},
		{"string+int", `local s = a .. i`},
		{"5strings", `local s = a .. b .. a .. b .. a`},
	} {
		src := "local a, b = 'hello', 'world'\nreturn function() for i = 1, 1000 do " + bc.body + " end end"
		b.Run(bc.name, func(b *testing.B) { benchModes(b, src) })
	}
}

// BenchmarkSwap compares a, b = b, a through the rewrite (temporaries)
// with gopher-lua's own (wrong) multiple assignment.
func BenchmarkSwap(b *testing.B) {
	src := "return function() local x, y = 1, 2 for i = 1, 1000 do x, y = y + i, x end return x end"
	benchModes(b, src)
}

// BenchmarkLen compares # through the rewrite (a call of lenSite) with
// gopher-lua's own OP_LEN, on 1,000 appends t[#t+1] = i a call.
func BenchmarkLen(b *testing.B) {
	src := "return function() local t = {} for i = 1, 1000 do t[#t + 1] = i end end"
	benchModes(b, src)
}
