package nats_test

import (
	"io"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/luahost/luahost/zones"
	"github.com/luahost/luahost/zones/internal/zonetest"
)

// BenchmarkNetHandoff measures one handoff over a local NATS server: a
// walker crosses from one zone to the other, each op one frame of both
// zones plus the wait until the receiver took it (its latency).
func BenchmarkNetHandoff(b *testing.B) {
	srv := startNATS(b)
	layout := zones.Layout{Edges: []float64{0}}
	// One walker at the edge, so fast that it crosses every frame.
	ents := []zonetest.Ent{{X: -0.5, Scripts: []string{"walker"}, Props: map[string]any{"n": 0, "speed": 60, "lo": -0.5, "hi": 0.5}}}
	z0 := netZone(b, srv.url(), "bench", 0, layout, ents, io.Discard, io.Discard)
	z1 := netZone(b, srv.url(), "bench", 1, layout, ents, io.Discard, io.Discard)
	b.Cleanup(func() { _ = z0.Close(); _ = z1.Close() })
	b.ReportAllocs()
	for b.Loop() {
		require.NoError(b, z0.Step(1.0/60))
		require.NoError(b, z1.Step(1.0/60))
		settleB(b, 1, z0, z1)
	}
}

// BenchmarkNetHandoff1000 measures the throughput of handoffs over a
// local NATS server: 1,000 walkers cross the edge in both directions
// every frame; each op is one frame of both zones and the wait until
// every walker arrived.
func BenchmarkNetHandoff1000(b *testing.B) {
	srv := startNATS(b)
	layout := zones.Layout{Edges: []float64{0}}
	ents := make([]zonetest.Ent, 1000)
	for i := range ents {
		x := -0.5
		if i%2 == 1 {
			x = 0.5
		}
		ents[i] = zonetest.Ent{X: x, Scripts: []string{"walker"}, Props: map[string]any{"n": i, "speed": 60, "lo": -0.5, "hi": 0.5}}
	}
	z0 := netZone(b, srv.url(), "bench", 0, layout, ents, io.Discard, io.Discard)
	z1 := netZone(b, srv.url(), "bench", 1, layout, ents, io.Discard, io.Discard)
	b.Cleanup(func() { _ = z0.Close(); _ = z1.Close() })
	b.ReportAllocs()
	for b.Loop() {
		require.NoError(b, z0.Step(1.0/60))
		require.NoError(b, z1.Step(1.0/60))
		settleB(b, 1000, z0, z1)
	}
	b.ReportMetric(float64(b.N)*1000/b.Elapsed().Seconds(), "handoffs/s")
}

// BenchmarkNetResume measures the time a stopped zone of 1,000 walkers
// takes to start again from its checkpoint: claim, load, restore, owner
// records checked.
func BenchmarkNetResume(b *testing.B) {
	srv := startNATS(b)
	layout := zones.Layout{Edges: []float64{100}}
	z := netZone(b, srv.url(), "resume", 0, layout, zonetest.Walkers(1000), io.Discard, io.Discard)
	require.NoError(b, z.Step(1.0/60))
	require.NoError(b, z.Close())
	for b.Loop() {
		z := netZone(b, srv.url(), "resume", 0, layout, nil, io.Discard, io.Discard)
		b.StopTimer()
		require.Equal(b, 1000, z.Entities())
		require.NoError(b, z.Close())
		b.StartTimer()
	}
}
