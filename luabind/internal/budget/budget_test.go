package budget

import (
	"context"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// run calls Done as the VM does until it fires or max calls passed, and
// returns how many calls did not fire.
func run(b *Budget, max int) int {
	for i := range max {
		select {
		case <-b.Done():
			return i
		default:
		}
	}
	return max
}

func TestWork(t *testing.T) {
	tests := []struct {
		name string
		work int64
		// charge is charged before the callback runs.
		charge int64
		want   int
	}{
		{"stops at its budget", 1000, 0, 999},
		{"charged work counts", 1000, 400, 599},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b := New(Options{Work: tt.work})
			defer b.Close()
			for range 3 {
				b.Arm()
				assert.False(t, b.Charge(tt.charge))
				assert.Equal(t, tt.want, run(b, 10_000), "the same point every time")
				assert.ErrorIs(t, b.Err(), ErrStopped)
				assert.True(t, b.Stopping())
				why, nested := b.Disarm(true)
				assert.Equal(t, Work, why)
				assert.False(t, nested)
				assert.NoError(t, b.Err(), "a stop ends with its callback")
			}
		})
	}
	t.Run("ChargeBytes", func(t *testing.T) {
		b := New(Options{Work: 10})
		b.Arm()
		assert.False(t, ChargeBytes(b, 9*BytesPerWork))
		assert.True(t, ChargeBytes(b, BytesPerWork))
		assert.True(t, Charge(b, 0))
		assert.False(t, Charge(context.Background(), 1e9), "not a budget: nothing to charge")
	})
}

// TestNested: a nested callback runs on the outer's count; when that runs
// out, the nested one is stopped without blame and the outer is stopped.
func TestNested(t *testing.T) {
	b := New(Options{Work: 100})
	b.Arm()
	assert.Equal(t, 50, run(b, 50))
	b.Arm()
	assert.Equal(t, 49, run(b, 1000), "the nested callback gets what the outer has left")
	why, nested := b.Disarm(true)
	assert.Equal(t, None, why)
	assert.True(t, nested)
	assert.True(t, b.Stopping(), "the outer is stopped too")
	why, nested = b.Disarm(true)
	assert.Equal(t, Work, why)
	assert.False(t, nested)

	b.Arm()
	assert.Equal(t, 99, run(b, 1000), "the next outermost callback gets a fresh budget")
	b.Disarm(true)
}

// TestRefund: work refunded after a stop is not charged, and the callback
// runs on.
func TestRefund(t *testing.T) {
	b := New(Options{Work: 100})
	b.Arm()
	run(b, 10)
	before := b.Count()
	assert.True(t, b.Charge(1000))
	b.Refund(before)
	assert.False(t, b.Stopping())
	assert.Equal(t, before, b.Count())
	assert.Equal(t, 89, run(b, 1000))
	b.Disarm(true)
}

// TestOff: without a work budget, Done never fires; SetWork gives one to
// the callbacks armed after it.
func TestOff(t *testing.T) {
	b := New(Options{})
	b.Arm()
	assert.Equal(t, 100_000, run(b, 100_000))
	b.Disarm(false)
	old := b.SetWork(10)
	assert.Zero(t, old)
	b.Arm()
	assert.Equal(t, 9, run(b, 100))
	b.Disarm(true)
}

// TestWall: the backstop stops a callback that is armed too long by the
// clock, at its next Done.
func TestWall(t *testing.T) {
	b := New(Options{Wall: 20 * time.Millisecond})
	defer b.Close()
	b.Arm()
	time.Sleep(100 * time.Millisecond)
	assert.Zero(t, run(b, 10))
	why, _ := b.Disarm(true)
	assert.Equal(t, Wall, why)
	b.Idle()
}

// TestCancel: Cancel, from another goroutine, stops the running callback
// and every callback armed before Resume.
func TestCancel(t *testing.T) {
	b := New(Options{})
	b.Arm()
	done := make(chan struct{})
	go func() {
		b.Cancel()
		close(done)
	}()
	<-done
	assert.Zero(t, run(b, 10))
	why, _ := b.Disarm(true)
	assert.Equal(t, Cancel, why)
	b.Arm()
	assert.Zero(t, run(b, 10), "armed while cancelled")
	b.Disarm(true)
	b.Resume()
	b.Arm()
	assert.Equal(t, 10, run(b, 10))
	b.Disarm(false)
}

// TestMemory: the memory limit measures the host's data once a quarter of
// it was allocated; growth past three quarters over the first measure
// stops the callback, with no work budget at all.
func TestMemory(t *testing.T) {
	size := int64(0)
	var keep [][]byte
	b := New(Options{Memory: 1 << 20, Measure: func(int64) (int64, int64) { return size, 100 }})
	b.Arm()
	stopped := false
	for range 100 {
		keep = append(keep, make([]byte, 1<<18))
		size += 1 << 18
		if run(b, memEvery) < memEvery {
			stopped = true
			break
		}
	}
	require.True(t, stopped)
	why, _ := b.Disarm(true)
	assert.Equal(t, Memory, why)
	assert.NotEmpty(t, keep)
}

// TestHold: a held callback's backstop clock stands still; released, it
// runs again.
func TestHold(t *testing.T) {
	b := New(Options{Wall: 40 * time.Millisecond})
	defer b.Close()
	b.Arm()
	b.Hold()
	time.Sleep(120 * time.Millisecond)
	assert.False(t, b.Charge(0), "held past the backstop, not stopped")
	b.Release()
	require.Eventually(t, func() bool { return b.Charge(0) }, 5*time.Second, time.Millisecond, "released, the backstop stops it")
}

// TestOf: a context that wraps a budget is looked through.
func TestOf(t *testing.T) {
	b := New(Options{Work: 10})
	defer b.Close()
	assert.Same(t, b, Of(b))
	assert.Same(t, b, Of(wrapped{b}))
	assert.Nil(t, Of(context.Background()))
	var none context.Context
	assert.Nil(t, Of(none), "a state without a context")
}

type wrapped struct{ context.Context }

func (w wrapped) Unwrap() context.Context { return w.Context }
