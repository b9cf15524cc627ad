package luabind

import (
	"io"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/luahost/luahost/runtime"
	"github.com/luahost/luahost/snapshot"
)

// spinnerSnapshot returns the marshalled snapshot of the 10,000-spinner
// world of the performance contract after 60 frames.
func spinnerSnapshot(b *testing.B) []byte {
	rt, h := newBenchWorld(b, benchEntities, -1)
	defer h.Close()
	for range 60 {
		require.NoError(b, rt.Step(1.0/60))
	}
	snap, err := h.Snapshot()
	require.NoError(b, err)
	data, err := snap.Marshal()
	require.NoError(b, err)
	return data
}

// BenchmarkSnapshot10000 measures saving the 10,000-spinner world: the
// snapshot and its JSON form (target: under 50 ms and 2 MB), with
// the size per entity.
func BenchmarkSnapshot10000(b *testing.B) {
	rt, h := newBenchWorld(b, benchEntities, -1)
	defer h.Close()
	for range 60 {
		require.NoError(b, rt.Step(1.0/60))
	}
	var size int
	b.ReportAllocs()
	for b.Loop() {
		snap, err := h.Snapshot()
		if err != nil {
			b.Fatal(err)
		}
		data, err := snap.Marshal()
		if err != nil {
			b.Fatal(err)
		}
		size = len(data)
	}
	b.ReportMetric(float64(size), "bytes")
	b.ReportMetric(float64(size)/benchEntities, "bytes/entity")
}

// BenchmarkRestore10000 measures continuing the 10,000-spinner world:
// parsing its snapshot and restoring it into a fresh runtime and host
// (made, and closed, outside the timer).
func BenchmarkRestore10000(b *testing.B) {
	data := spinnerSnapshot(b)
	b.ReportAllocs()
	b.ReportMetric(float64(len(data)), "bytes")
	for b.Loop() {
		b.StopTimer()
		rt := runtime.New(runtime.Options{OnError: runtime.Discard})
		h, err := New(rt, Options{Dir: "testdata/scripts", Stdout: io.Discard, Log: io.Discard, Budget: -1})
		require.NoError(b, err)
		b.StartTimer()
		snap, err := snapshot.Parse(data)
		if err != nil {
			b.Fatal(err)
		}
		if err := h.Restore(snap); err != nil {
			b.Fatal(err)
		}
		b.StopTimer()
		_ = h.Close()
		b.StartTimer()
	}
}

// BenchmarkSnapshotAsync10000 measures what a snapshot of the
// 10,000-spinner world costs the frame loop with SnapshotAsync: the copy
// between frames (the encoding, which runs on its own goroutine, is
// waited for outside the timer). The target is under 20 ms.
func BenchmarkSnapshotAsync10000(b *testing.B) { benchSnapshotAsync(b, benchEntities) }

// BenchmarkSnapshotAsync100000 is BenchmarkSnapshotAsync10000 at 100,000
// entities: the copy grows in proportion.
func BenchmarkSnapshotAsync100000(b *testing.B) { benchSnapshotAsync(b, 10*benchEntities) }

func benchSnapshotAsync(b *testing.B, n int) {
	rt, h := newBenchWorld(b, n, -1)
	defer h.Close()
	for range 60 {
		require.NoError(b, rt.Step(1.0/60))
	}
	b.ReportAllocs()
	for b.Loop() {
		p, err := h.SnapshotAsync()
		if err != nil {
			b.Fatal(err)
		}
		b.StopTimer()
		if _, err := p.Wait(); err != nil {
			b.Fatal(err)
		}
		b.StartTimer()
	}
}
