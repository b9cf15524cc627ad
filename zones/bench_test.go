package zones_test

import (
	"fmt"
	"io"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/luahost/luahost/luabind"
	"github.com/luahost/luahost/runtime"
	"github.com/luahost/luahost/zones"
	"github.com/luahost/luahost/zones/internal/zonetest"
)

// BenchmarkHandoff measures one handoff: an entity with a walker's
// state and a timer exported from one runtime and imported into another
// that runs the same scripts.
func BenchmarkHandoff(b *testing.B) {
	hosts := make([]*luabind.Host, 2)
	for i := range hosts {
		h, err := luabind.New(runtime.New(runtime.Options{OnError: runtime.Discard}), luabind.Options{Dir: "testdata/scripts", Stdout: io.Discard})
		require.NoError(b, err)
		b.Cleanup(func() { _ = h.Close() })
		hosts[i] = h
	}
	rt := hosts[0].Runtime()
	e := rt.Spawn()
	_, err := hosts[0].Attach(e, "walker", map[string]any{"n": 7, "speed": 45})
	require.NoError(b, err)
	require.NoError(b, rt.Activate(e))
	require.NoError(b, rt.Step(1.0/60))
	from, to := 0, 1
	b.ReportAllocs()
	for b.Loop() {
		snaps, err := hosts[from].ExportAll([]runtime.Handle{e})
		if err != nil {
			b.Fatal(err)
		}
		hs, err := hosts[to].ImportAll(snaps)
		if err != nil {
			b.Fatal(err)
		}
		e, from, to = hs[0], to, from
	}
}

// BenchmarkWalkers100k runs a world of 100,000 striders spread over
// [-1000, 1000) on 1, 2 and 4 zones of equal strips, their edges fixed
// and following the work (considered every 10 frames, as luahost run
// --zones does), and reports frames per second, the CPU time a frame
// takes on all cores together, and handoffs per frame.
func BenchmarkWalkers100k(b *testing.B) {
	const n = 100_000
	ents := make([]zonetest.Ent, n)
	for i := range ents {
		dir := 1
		if i%2 == 1 {
			dir = -1
		}
		ents[i] = zonetest.Ent{X: -1000 + 2000*float64(i)/n, Scripts: []string{"strider"}, Props: map[string]any{"speed": 5 + i%20, "dir": dir}}
	}
	benchZones(b, ents, 2)
}

// BenchmarkView10k measures what the committed view costs a frame of a
// world of 10,000 walkers on two zones: each zone listing its entities
// (AppendView, in parallel in a World) and the view built of them
// (NewView) in the entries of the one before, which together is what a
// frame spends on the view.
func BenchmarkView10k(b *testing.B) {
	const n = 10_000
	layout := zones.Layout{Edges: []float64{0}}
	w, _ := newWorld(b, layout, zonetest.Walkers(n), io.Discard)
	run(b, w, 1)
	var parts [2][]luabind.ViewEntity
	var spare []luabind.ViewEntity
	b.ReportAllocs()
	for b.Loop() {
		all := spare[:0]
		for i := range parts {
			parts[i] = w.Host(i).AppendView(parts[i][:0], i)
			all = append(all, parts[i]...)
		}
		v := luabind.NewView(all)
		if v.Len() != n {
			b.Fatalf("the view holds %d entities", v.Len())
		}
		spare = v.Entities()
	}
}

// BenchmarkHotSpot runs a hot spot: 10,000 walkers crowded in [0, 10),
// right above the edge at 0 of equal strips over [-1000, 1000), and 1,000
// walking over the whole width, on 1, 2 and 4 zones, with the edges
// fixed and following the work (moved every 10 frames when a zone holds
// more than its share). It reports frames per second, the CPU time a
// frame takes on all cores together, and handoffs per frame.
func BenchmarkHotSpot(b *testing.B) {
	benchZones(b, hotSpot(10_000, 1_000), 20)
}

// benchZones measures (measureFrames) a world of ents on 1, 2 and 4
// equal strips over [-1000, 1000), its edges fixed and following the
// work (considered every 10 frames), after warm frames.
func benchZones(b *testing.B, ents []zonetest.Ent, warm int) {
	for _, z := range []int{1, 2, 4} {
		for _, balance := range []int{0, 10} {
			if z == 1 && balance > 0 {
				continue
			}
			b.Run(fmt.Sprintf("zones=%d/balance=%d", z, balance), func(b *testing.B) {
				w := balancedWorld(b, zones.Split(0, -1000, 1000, z), balance, ents, io.Discard)
				run(b, w, warm)
				measureFrames(b, w)
			})
		}
	}
}

// measureFrames steps w for the benchmark and reports its frames a
// second, the CPU time a frame of all cores together (what the zones
// cost whatever else the machine runs) and the handoffs a frame.
func measureFrames(b *testing.B, w *zones.World) {
	b.Helper()
	start := w.Handoffs()
	b.ReportAllocs()
	b.ResetTimer()
	frames := 0
	cpu := cpuTime()
	for b.Loop() {
		if err := w.Step(1.0 / 60); err != nil {
			b.Fatal(err)
		}
		frames++
	}
	b.ReportMetric(float64(frames)/b.Elapsed().Seconds(), "frames/s")
	b.ReportMetric(float64(cpuTime()-cpu)/1e6/float64(frames), "cpu-ms/frame")
	b.ReportMetric(float64(w.Handoffs()-start)/float64(frames), "handoffs/frame")
}
