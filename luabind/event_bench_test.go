package luabind

import (
	"context"
	"os"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	lua "github.com/yuin/gopher-lua"

	"github.com/luahost/luahost/runtime"
)

const benchListeners = 1000

// BenchmarkEventDelivery measures one event delivered from Go to 1,000 Lua
// handlers (testdata/scripts/bench/listener.lua, number data), against a
// bare gopher-lua loop making the same 1,000 handler calls with reused
// arguments, alternated in one loop: "x-bare" is the host's time over
// bare's (≤ 1.3x). allocs/op counts every loop's: the handler's
// sum is a new number in each (TestDeliveryAllocatesPerDispatch checks
// that delivering allocates nothing per handler). With a budget, "x-bare-ctx" is the host's time over a third
// loop, the bare one on a state that has a context: gopher-lua then checks
// the context before every instruction, as it does the budget's.
func BenchmarkEventDelivery(b *testing.B) {
	for _, bc := range []struct {
		name   string
		budget time.Duration
	}{{"budget=off", -1}, {"budget=on", DefaultBudget}} {
		b.Run(bc.name, func(b *testing.B) {
			bare := newBareHandlers(b, nil)
			rt := runtime.New(runtime.Options{OnError: runtime.Discard})
			h, err := New(rt, benchOptions(bc.budget))
			require.NoError(b, err)
			defer h.Close()
			for range benchListeners {
				e := rt.Spawn()
				_, err := h.Attach(e, "bench/listener", nil)
				require.NoError(b, err)
				require.NoError(b, rt.Activate(e))
			}
			events := rt.Events()
			bareCtx := func() {}
			if bc.budget > 0 {
				ctx, cancel := context.WithCancel(context.Background())
				defer cancel()
				bareCtx = newBareHandlers(b, ctx)
			}
			var hostTime, bareTime, ctxTime time.Duration
			n := 0.0
			b.ReportAllocs()
			for b.Loop() {
				n++
				start := time.Now()
				if _, err := events.Notify("hit", n, -1); err != nil {
					b.Fatal(err)
				}
				mid := time.Now()
				bare()
				end := time.Now()
				bareCtx()
				hostTime += mid.Sub(start)
				bareTime += end.Sub(mid)
				ctxTime += time.Since(end)
			}
			b.ReportMetric(float64(hostTime)/float64(bareTime), "x-bare")
			if bc.budget > 0 {
				b.ReportMetric(float64(hostTime)/float64(ctxTime), "x-bare-ctx")
			}
			b.ReportMetric(float64(hostTime.Nanoseconds())/float64(b.N)/benchListeners, "host-ns/delivery")
			b.ReportMetric(float64(bareTime.Nanoseconds())/float64(b.N)/benchListeners, "bare-ns/delivery")
		})
	}
}

// newBareHandlers returns the baseline of one dispatch: a plain gopher-lua
// state calling the listener's handler once for each of 1,000 self tables
// through Push/Call, with a reused context, number and event userdata.
// A non-nil ctx becomes the state's context.
func newBareHandlers(b *testing.B, ctx context.Context) func() {
	src, err := os.ReadFile("testdata/scripts/bench/listener.lua")
	require.NoError(b, err)
	L := lua.NewState()
	b.Cleanup(L.Close)
	if ctx != nil {
		L.SetContext(ctx)
	}
	require.NoError(b, L.DoString(string(src)))
	fn := L.Get(-1).(*lua.LTable).RawGetString("events").(*lua.LTable).RawGetString("hit").(*lua.LFunction)
	ctxTable := L.NewTable()
	ev := L.NewUserData()
	selves := make([]*lua.LTable, benchListeners)
	for i := range selves {
		selves[i] = L.CreateTable(0, 1)
		selves[i].RawSetString("total", lua.LNumber(0))
	}
	var data lua.LValue = lua.LNumber(1)
	return func() {
		for _, self := range selves {
			L.Push(fn)
			L.Push(self)
			L.Push(ctxTable)
			L.Push(data)
			L.Push(ev)
			L.Call(4, 1)
			L.Pop(1)
		}
	}
}
