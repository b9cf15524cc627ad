package lstring

import (
	"strings"
	"testing"

	lua "github.com/yuin/gopher-lua"
)

// benchCall measures string.name(args...) in a state with gopher-lua's
// functions and in one with this package's.
func benchCall(b *testing.B, name string, args ...lua.LValue) {
	states := []struct {
		label string
		L     *lua.LState
	}{
		{"original", newOriginal(b)},
		{"bounded", newBounded(b, Limits{})},
	}
	for _, st := range states {
		b.Run(st.label, func(b *testing.B) {
			L := st.L
			fn := L.GetField(L.GetGlobal("string"), name)
			b.ReportAllocs()
			for b.Loop() {
				L.Push(fn)
				for _, a := range args {
					L.Push(a)
				}
				if err := L.PCall(len(args), lua.MultRet, nil); err != nil {
					b.Fatal(err)
				}
				L.SetTop(0)
			}
		})
	}
}

var benchText = lua.LString(strings.Repeat("The quick brown fox jumps over the lazy dog. ", 100))

func BenchmarkFindLiteral_4500(b *testing.B) {
	benchCall(b, "find", benchText, lua.LString("lazy cat"))
}

func BenchmarkFindClass_4500(b *testing.B) {
	benchCall(b, "find", benchText, lua.LString("%d+"))
}

func BenchmarkMatchCaptures_Short(b *testing.B) {
	benchCall(b, "match", lua.LString("  key = value  "), lua.LString("^%s*(%w+)%s*=%s*(%w+)%s*$"))
}

func BenchmarkGsubWords_4500(b *testing.B) {
	benchCall(b, "gsub", benchText, lua.LString("%w+"), lua.LString("<%0>"))
}

func BenchmarkGmatchWords_4500(b *testing.B) {
	L := newBounded(b, Limits{})
	L.SetGlobal("text", benchText)
	fn, err := L.LoadString(`local n = 0 for w in string.gmatch(text, "%a+") do n = n + 1 end return n`)
	if err != nil {
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		L.Push(fn)
		if err := L.PCall(0, 1, nil); err != nil {
			b.Fatal(err)
		}
		L.SetTop(0)
	}
}

func BenchmarkFormat_3Args(b *testing.B) {
	benchCall(b, "format", lua.LString("%5.2f %d %s"), lua.LNumber(3.14159), lua.LNumber(42), lua.LString("hi"))
}

func BenchmarkRep_1KiB(b *testing.B) {
	benchCall(b, "rep", lua.LString("x"), lua.LNumber(1024))
}
