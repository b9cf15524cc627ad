package luabind

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/luahost/luahost/runtime"
)

// TestBroadcastObserverPanics: a Go observer that panics on a broadcast,
// sent by a script (ctx.broadcast) or from Go (Host.Broadcast), is
// reported with its Go stack; the frame ends, the next Step works and
// Close runs every onDestroy.
func TestBroadcastObserverPanics(t *testing.T) {
	tests := []struct {
		name string
		send func(w *world)
	}{
		{"ctx.broadcast", func(w *world) { w.spawn("", "budget/caster") }},
		{"Host.Broadcast", func(w *world) {
			w.spawn("", "budget/caster")
			w.h.Broadcast("cast", "from Go")
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w := newWorld(t)
			panics := 0
			w.rt.Events().Observe("cast", func(*runtime.Event) any {
				panics++
				panic("boom")
			}, runtime.ObserveOptions{})
			tt.send(w)
			w.step(2, 0.1)
			assert.False(t, w.rt.Stepping())
			require.NotEmpty(t, w.errs)
			for _, err := range w.errs {
				assert.ErrorIs(t, err, runtime.ErrPanic)
				assert.Contains(t, err.Error(), `broadcast "cast": an observer's panic: boom`)
				assert.Contains(t, err.Error(), "interrupt_test.go", "the Go stack")
			}
			assert.Equal(t, len(w.errs), panics)
			assert.Equal(t, []string{"cast\t1", "cast\t2"}, w.takeLines())
			w.close()
			assert.Equal(t, []string{"caster done"}, w.lines())
		})
	}
}

// TestStepContextStopsLua: cancelling a frame's context stops a Lua
// callback that would run for ever (its work budget is off), without
// faulting it; the instances after it get no update; the frame ends and
// StepContext returns the context's error; the next frame runs them all.
func TestStepContextStopsLua(t *testing.T) {
	w := newWorld(t, withWork(-1, 0))
	w.spawn("", "budget/forever")
	w.spawn("", "helper/neighbour")
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()

	start := time.Now()
	err := w.rt.StepContext(ctx, 0.1)
	elapsed := time.Since(start)
	assert.ErrorIs(t, err, context.DeadlineExceeded)
	var fe *runtime.FrameError
	require.ErrorAs(t, err, &fe)
	assert.Equal(t, 1, fe.Updated)
	assert.Equal(t, 1, fe.Skipped)
	require.NotNil(t, fe.Stopped)
	assert.Equal(t, "budget/forever", fe.Stopped.Script().Name())
	assert.Less(t, elapsed, 5*time.Second, "stopped promptly")
	assert.False(t, fe.Stopped.Faulted())
	w.requireNoErrors()
	assert.Empty(t, w.takeLines(), "the neighbour got no update")
	assert.Equal(t, uint64(1), w.rt.Stats().Overruns)

	w.step(1, 0.1)
	assert.Equal(t, []string{"forever\t2", "neighbour\t2"}, w.takeLines())
	w.close()
	assert.Contains(t, w.lines(), "forever done")
}
