package luabind

import (
	"io"
	"os"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	lua "github.com/yuin/gopher-lua"

	"github.com/luahost/luahost/runtime"
)

const benchEntities = 10000

// BenchmarkFrame10000 measures one frame of 10,000 entities running the
// spinner onUpdate of SPEC 10, against a bare gopher-lua loop making the
// same 10,000 calls in the same run ("bare"). The ratio of the host's
// figures to bare's is the runtime's overhead.
func BenchmarkFrame10000(b *testing.B) {
	b.Run("bare", benchBare)
	b.Run("budget=on", func(b *testing.B) { benchFrame(b, DefaultBudget) })
	b.Run("budget=off", func(b *testing.B) { benchFrame(b, -1) })
}

func benchBare(b *testing.B) {
	src, err := os.ReadFile("testdata/scripts/spinner.lua")
	require.NoError(b, err)
	L := lua.NewState()
	defer L.Close()
	require.NoError(b, L.DoString(string(src)))
	tbl := L.Get(-1).(*lua.LTable)
	fn := tbl.RawGetString("onUpdate").(*lua.LFunction)
	ctx := L.NewTable()
	selves := make([]*lua.LTable, benchEntities)
	for i := range selves {
		selves[i] = L.NewTable()
		selves[i].RawSetString("speed", lua.LNumber(90))
		selves[i].RawSetString("angle", lua.LNumber(0))
	}
	var dt lua.LValue = lua.LNumber(1.0 / 60)
	b.ReportAllocs()
	for b.Loop() {
		for _, self := range selves {
			L.Push(fn)
			L.Push(self)
			L.Push(ctx)
			L.Push(dt)
			L.Call(3, 0)
		}
	}
}

func benchFrame(b *testing.B, budget time.Duration) {
	rt := runtime.New(runtime.Options{OnError: runtime.Discard})
	h, err := New(rt, Options{Dir: "testdata/scripts", Stdout: io.Discard, Budget: budget})
	require.NoError(b, err)
	defer h.Close()
	for range benchEntities {
		e := rt.Spawn()
		_, err := h.Attach(e, "spinner", nil)
		require.NoError(b, err)
		require.NoError(b, rt.Activate(e))
	}
	require.NoError(b, rt.Step(1.0/60))
	b.ReportAllocs()
	for b.Loop() {
		_ = rt.Step(1.0 / 60)
	}
}
