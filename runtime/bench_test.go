package runtime

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// churn spawns an entity, attaches s, activates it and kills it (outside a
// frame, so it is settled and reaped at once).
func churn(rt *Runtime, s Script) {
	h := rt.Spawn()
	if _, err := rt.Attach(h, s, nil); err != nil {
		panic(err)
	}
	if err := rt.Activate(h); err != nil {
		panic(err)
	}
	if _, err := rt.Kill(h); err != nil {
		panic(err)
	}
}

// world returns a runtime with n Active entities, each with one instance of
// a script whose Update only counts.
func world(n int) (*Runtime, *countScript) {
	rt := New(Options{OnError: Discard})
	s := &countScript{}
	for range n {
		h := rt.Spawn()
		if _, err := rt.Attach(h, s, nil); err != nil {
			panic(err)
		}
		if err := rt.Activate(h); err != nil {
			panic(err)
		}
	}
	return rt, s
}

func BenchmarkChurn(b *testing.B) {
	for _, bc := range []struct {
		name  string
		limit int
	}{
		{"pooled", 0},
		{"unpooled", -1},
	} {
		b.Run(bc.name, func(b *testing.B) {
			rt := New(Options{PoolLimit: bc.limit, OnError: Discard})
			defer rt.Close()
			s := &countScript{}
			b.ReportAllocs()
			for b.Loop() {
				churn(rt, s)
			}
		})
	}
}

func BenchmarkStep10000(b *testing.B) {
	rt, _ := world(10_000)
	defer rt.Close()
	if err := rt.Step(1.0 / 60); err != nil { // merge the attaches into the schedule
		b.Fatal(err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if err := rt.Step(1.0 / 60); err != nil {
			b.Fatal(err)
		}
	}
}

// TestStepAllocatesNothing checks the frame's cost claim: in steady state a
// frame over 10,000 Go-native instances allocates nothing of its own.
func TestStepAllocatesNothing(t *testing.T) {
	rt, s := world(10_000)
	t.Cleanup(func() { _ = rt.Close() })
	step(t, rt, 1.0/60)
	step(t, rt, 1.0/60)
	require.Equal(t, 20_000, s.n)

	allocs := testing.AllocsPerRun(5, func() {
		if err := rt.Step(1.0 / 60); err != nil {
			panic(err)
		}
	})
	assert.Zero(t, allocs)
	assert.Equal(t, 10_000*(2+6), s.n, "every instance ran every frame") // AllocsPerRun runs once more to warm up
}

// TestChurnReusesPayloads checks that, once warm, pooled churn makes no new
// payloads, and that without the pool every spawn makes one.
func TestChurnReusesPayloads(t *testing.T) {
	t.Run("pooled", func(t *testing.T) {
		rt := New(Options{OnError: Discard})
		t.Cleanup(func() { _ = rt.Close() })
		s := &countScript{}
		churn(rt, s)
		require.Equal(t, 1, rt.Payloads().Made)
		for range 1000 {
			churn(rt, s)
		}
		assert.Equal(t, 1, rt.Payloads().Made)
		assert.Equal(t, 1001, rt.Payloads().Got)
		assert.Equal(t, 1, rt.Payloads().Idle)
	})
	t.Run("unpooled", func(t *testing.T) {
		rt := New(Options{PoolLimit: -1, OnError: Discard})
		t.Cleanup(func() { _ = rt.Close() })
		s := &countScript{}
		for range 1000 {
			churn(rt, s)
		}
		assert.Equal(t, 1000, rt.Payloads().Made)
		assert.Zero(t, rt.Payloads().Idle)
	})
}

// TestChurnOutsideFrameKeepsNoGarbage checks that destroyed instances do not
// pile up in the schedule while entities churn between frames.
func TestChurnOutsideFrameKeepsNoGarbage(t *testing.T) {
	rt, _ := world(10)
	t.Cleanup(func() { _ = rt.Close() })
	s := &countScript{}
	for range 10_000 {
		churn(rt, s)
	}
	assert.Less(t, rt.sched.len()+len(rt.added), 200)
	assert.Equal(t, 10, rt.Stats().Instances)
	assert.Len(t, rt.Schedule(), 10)
}
