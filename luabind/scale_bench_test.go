package luabind

import (
	"fmt"
	"io"
	"os"
	goruntime "runtime"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	lua "github.com/yuin/gopher-lua"

	"github.com/luahost/luahost/runtime"
)

// scaleSizes are the world sizes of BenchmarkScale. The million runs only
// with LUAHOST_BENCH_HUGE=1: it needs about 2 GB and minutes of setup.
func scaleSizes() []int {
	sizes := []int{1_000, 10_000, 100_000}
	if os.Getenv("LUAHOST_BENCH_HUGE") == "1" {
		sizes = append(sizes, 1_000_000)
	}
	return sizes
}

// BenchmarkScale measures the spinner frame at 1k to 1M entities (the
// performance doc's scale table), made by the scene (Attach from Go) or spawned from
// Lua (ctx.spawn in onCreates), with budgets on and off; "lua-onespec"
// (budgets off only) spawns from Lua with one spec table reused, which
// shows what the specs a crowd throws away cost. Every iteration
// runs a host frame and a frame of the floor — one gopher-lua state, self
// tables made with CreateTable(0, 8), Push/Call with reused arguments —
// back to back, each timed by the thread's CPU clock. Metrics: x-floor (the host's time over the floor's),
// host-ns/frame, p99/median of the host's frames, load-us/entity (setup,
// from nothing to the first frame), B/entity (live heap after setup) and
// faults (callbacks stopped by the budget: 0, on any machine).
func BenchmarkScale(b *testing.B) {
	for _, n := range scaleSizes() {
		for _, origin := range []string{"scene", "lua", "lua-onespec"} {
			for _, bc := range []struct {
				name   string
				budget time.Duration
			}{{"budget=off", -1}, {"budget=on", DefaultBudget}} {
				if origin == "lua-onespec" && bc.budget > 0 {
					continue
				}
				b.Run(fmt.Sprintf("entities=%d/%s/%s", n, origin, bc.name), func(b *testing.B) {
					benchScale(b, n, origin, bc.budget)
				})
			}
		}
	}
}

func benchScale(b *testing.B, n int, origin string, budget time.Duration) {
	before := heapInUse()
	start := time.Now()
	// Faults are counted, not fatal.
	rt := runtime.New(runtime.Options{OnError: runtime.Discard})
	h, err := New(rt, benchOptions(budget))
	require.NoError(b, err)
	defer h.Close()
	if origin == "scene" {
		for range n {
			e := rt.Spawn()
			_, err := h.Attach(e, "bench/spinner", nil)
			require.NoError(b, err)
			require.NoError(b, rt.Activate(e))
		}
	} else {
		crowd := "bench/crowd"
		if origin == "lua-onespec" {
			crowd = "bench/crowdonespec"
		}
		for range n / 1000 {
			e := rt.Spawn()
			_, err := h.Attach(e, crowd, map[string]any{"count": 1000})
			require.NoError(b, err)
			require.NoError(b, rt.Activate(e))
		}
	}
	require.NoError(b, rt.Step(1.0/60))
	load := time.Since(start)
	size := float64(heapInUse()-before) / float64(n)
	floor := newFloor(b, n)
	// Frames are timed by the thread's CPU clock, alternated with the
	// floor's, so that the ratio holds on a loaded machine.
	goruntime.LockOSThread()
	defer goruntime.UnlockOSThread()
	var hostTime, floorTime time.Duration
	var frames []time.Duration
	for b.Loop() {
		t0 := threadCPU()
		_ = rt.Step(1.0 / 60)
		t1 := threadCPU()
		floor()
		d := t1 - t0
		hostTime += d
		floorTime += threadCPU() - t1
		frames = append(frames, d)
	}
	slices.Sort(frames)
	b.ReportMetric(float64(hostTime)/float64(floorTime), "x-floor")
	b.ReportMetric(float64(hostTime.Nanoseconds())/float64(b.N), "host-ns/frame")
	b.ReportMetric(float64(frames[len(frames)*99/100])/float64(frames[len(frames)/2]), "p99/median")
	b.ReportMetric(float64(load.Microseconds())/float64(n), "load-us/entity")
	b.ReportMetric(size, "B/entity")
	b.ReportMetric(float64(rt.Stats().Errors), "faults")
}

// newFloor returns one frame of the floor over n spinners.
func newFloor(b *testing.B, n int) func() {
	src, err := os.ReadFile("testdata/scripts/bench/spinner.lua")
	require.NoError(b, err)
	L := lua.NewState()
	b.Cleanup(L.Close)
	require.NoError(b, L.DoString(string(src)))
	fn := L.Get(-1).(*lua.LTable).RawGetString("onUpdate").(*lua.LFunction)
	ctx := L.NewTable()
	selves := make([]*lua.LTable, n)
	for i := range selves {
		selves[i] = L.CreateTable(0, 8)
		selves[i].RawSetString("speed", lua.LNumber(90))
		selves[i].RawSetString("angle", lua.LNumber(0))
	}
	var dt lua.LValue = lua.LNumber(1.0 / 60)
	return func() {
		for _, self := range selves {
			L.Push(fn)
			L.Push(self)
			L.Push(ctx)
			L.Push(dt)
			L.Call(3, 0)
		}
	}
}

// BenchmarkLoadScripts loads 1,000 distinct small scripts (one Lua state
// each) into one host: load-us/script is the time from nothing to all
// loaded, heap-KiB/script the live heap they hold, rss-KiB/script the
// growth of the process's resident set (memory per Lua state).
func BenchmarkLoadScripts(b *testing.B) {
	const n = 1000
	dir := b.TempDir()
	for i := range n {
		src := fmt.Sprintf("return { properties = { speed = %d }, onUpdate = function(self, ctx, dt) self.speed = self.speed + dt end }\n", i)
		require.NoError(b, os.WriteFile(fmt.Sprintf("%s/s%d.lua", dir, i), []byte(src), 0o644))
	}
	first := true
	for b.Loop() {
		before, rss := heapInUse(), residentKiB(b)
		start := time.Now()
		rt := runtime.New(runtime.Options{OnError: func(err error) { b.Fatal(err) }})
		h, err := New(rt, Options{Dir: dir, Stdout: io.Discard, Log: io.Discard, Budget: -1})
		require.NoError(b, err)
		for i := range n {
			_, err := h.Attach(rt.Spawn(), fmt.Sprintf("s%d", i), nil)
			require.NoError(b, err)
		}
		load := time.Since(start)
		b.ReportMetric(float64(load.Microseconds())/n, "load-us/script")
		b.ReportMetric(float64(heapInUse()-before)/1024/n, "heap-KiB/script")
		if first {
			// Later loads reuse the memory the first one's Close freed.
			b.ReportMetric(float64(residentKiB(b)-rss)/n, "rss-KiB/script")
			first = false
		}
		require.NoError(b, h.Close())
	}
}

// residentKiB returns the process's resident set (VmRSS), 0 where /proc
// is missing.
func residentKiB(b *testing.B) int64 {
	data, err := os.ReadFile("/proc/self/status")
	if err != nil {
		return 0
	}
	var kib int64
	for line := range strings.Lines(string(data)) {
		if _, err := fmt.Sscanf(line, "VmRSS: %d kB", &kib); err == nil {
			return kib
		}
	}
	return 0
}
