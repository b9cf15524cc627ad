package luabind

import (
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestStatsMonotonic: with sampled timing, no counter ever goes down from
// one frame to the next, so a metrics system never reads a reset.
func TestStatsMonotonic(t *testing.T) {
	w := newWorld(t)
	// However slow the machine (a race build), the spinner is sampled.
	w.h.clock.every = time.Hour
	for range 300 {
		w.spawn("", "spinner")
	}
	var last ScriptStats
	for frame := range 400 {
		w.step(1, 1.0/60)
		s := w.scriptStats("spinner")
		require.GreaterOrEqual(t, s.Calls, last.Calls, "frame %d", frame)
		require.GreaterOrEqual(t, s.Total, last.Total, "frame %d: Total went down", frame)
		require.GreaterOrEqual(t, s.Errors, last.Errors, "frame %d", frame)
		last = s
	}
	assert.False(t, last.Exact, "timing was sampled")
	assert.Positive(t, last.Total)
}

// TestTotalsNeverDecrease feeds a kind's counters calls timed and not,
// a long one first and short ones after: the estimated total never goes
// down (an estimate scaled from the timed calls' mean would), and it is
// the exact sum when every call is timed.
func TestTotalsNeverDecrease(t *testing.T) {
	calls := []struct {
		timed bool
		d     time.Duration
	}{{true, 100}, {false, 0}, {false, 0}, {false, 0}, {true, 1}, {false, 0}, {true, 1}, {true, 50}, {false, 0}, {true, 2}}
	var tm timing
	k := &tm.kinds[kindOnUpdate]
	var last time.Duration
	for i, c := range calls {
		k.calls++
		if c.timed {
			k.record(c.d, everyTime)
		}
		total := tm.stats("x", 0).Total
		require.GreaterOrEqual(t, total, last, "call %d", i)
		last = total
	}
	assert.Equal(t, int64(10), tm.stats("x", 0).Calls)

	var exact timing
	k = &exact.kinds[kindOnUpdate]
	for _, d := range []time.Duration{100, 1, 1, 50} {
		k.calls++
		k.record(d, everyTime)
	}
	assert.Equal(t, time.Duration(152), exact.stats("x", 0).Total)
	assert.True(t, exact.stats("x", 0).Exact)
}

// TestStatsAnyGoroutine reads Stats from another goroutine while the
// world runs: the race detector finds nothing, and what it reads is
// whole (frames and frame times agree).
func TestStatsAnyGoroutine(t *testing.T) {
	w := newWorld(t)
	for range 50 {
		w.spawn("", "spinner")
	}
	done, started := make(chan struct{}), make(chan struct{})
	var wg sync.WaitGroup
	wg.Add(1)
	var reads int
	go func() {
		defer wg.Done()
		for {
			select {
			case <-done:
				return
			default:
			}
			s := w.h.Stats()
			if s.FrameTimes.Count != s.Runtime.Frames {
				t.Errorf("frame times count %d frames, the runtime %d", s.FrameTimes.Count, s.Runtime.Frames)
				return
			}
			if reads++; reads == 1 {
				close(started)
			}
		}
	}()
	<-started
	w.step(100, 1.0/60)
	close(done)
	wg.Wait()
	assert.Positive(t, reads)
	s := w.h.Stats()
	assert.Equal(t, uint64(100), s.FrameTimes.Count)
	var sum uint64
	for _, n := range s.FrameTimes.Buckets {
		sum += n
	}
	assert.Equal(t, s.FrameTimes.Count, sum)
	assert.Positive(t, s.FrameTimes.Sum)
	assert.Equal(t, 50, s.Runtime.Entities)
	assert.Equal(t, 50, s.Runtime.Instances)
}

// TestStatsFaultsReloads: faults and applied reloads are counted per
// script; an onDestroy error is an error but no fault. Stats read
// between frames see the callbacks run since the last frame.
func TestStatsFaultsReloads(t *testing.T) {
	w := newWorld(t)
	require.NoError(t, w.h.Reload("stats/faulty", []byte(`return {
  onUpdate = function(self) error("boom") end,
  onDestroy = function(self) error("bye") end,
}`)))
	e := w.spawn("", "stats/faulty")
	w.spawn("", "stats/faulty")
	w.step(2, 0.1)
	s := w.scriptStats("stats/faulty")
	assert.Equal(t, int64(2), s.Faults, "each instance faulted once")
	assert.Equal(t, int64(2), s.Errors)
	assert.Zero(t, s.Reloads, "the source given first loads the script")

	_, err := w.rt.Kill(e)
	require.NoError(t, err)
	w.step(1, 0.1)
	s = w.scriptStats("stats/faulty")
	assert.Equal(t, int64(3), s.Errors, "onDestroy's error counts")
	assert.Equal(t, int64(2), s.Faults, "but faults nothing")

	w.spawn("", "spinner")
	assert.Equal(t, int64(1), calls(w.scriptStats("spinner"))["onCreate"], "a callback between frames is published")
	assert.Equal(t, 2, w.h.Stats().Runtime.Entities)

	require.NoError(t, w.h.Reload("spinner", []byte(`return { onUpdate = function() end }`)))
	assert.Equal(t, int64(1), w.scriptStats("spinner").Reloads)
	assert.Equal(t, 1, w.h.Stats().Reloads)
}

// TestMeasureMemory: MeasureMemory publishes the Lua data's size.
func TestMeasureMemory(t *testing.T) {
	w := newWorld(t)
	assert.Zero(t, w.h.Stats().Memory)
	w.spawn("", "spinner")
	n := w.h.MeasureMemory()
	assert.Positive(t, n)
	assert.Equal(t, n, w.h.Stats().Memory)
}
