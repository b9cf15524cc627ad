package luabind

import (
	goruntime "runtime"
	"runtime/metrics"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/luahost/luahost/runtime"
)

// withWork sets the work budget in instructions and the memory limit.
func withWork(n, mem int64) func(*runtime.Options, *Options) {
	return func(_ *runtime.Options, o *Options) {
		o.Work = n
		o.MemoryLimit = mem
	}
}

// withoutBounds turns off the bounds other than the work budget and the
// memory limit: the backstop and the ceiling.
func withoutBounds(_ *runtime.Options, o *Options) {
	o.WallClock, o.MemoryCeiling = -1, -1
}

// countTo runs budget/counter.lua under a budget of work instructions and
// returns how far it counted before it was stopped.
func countTo(t *testing.T, work int64) float64 {
	t.Helper()
	w := newWorld(t, withWork(work, 0))
	e := w.spawn("", "budget/counter")
	w.step(1, 0.1)
	errs := w.scriptErrors()
	require.Len(t, errs, 1)
	assert.ErrorIs(t, errs[0], ErrBudget)
	assert.Equal(t, "testdata/scripts/budget/counter.lua:8: exceeded its "+FormatWork(work)+"-instruction budget in onUpdate", errs[0].Message)
	insts, err := w.rt.Instances(e)
	require.NoError(t, err)
	self, err := w.h.Self(insts[0])
	require.NoError(t, err)
	n, ok := self.Get("n").(float64)
	require.True(t, ok)
	return n
}

// TestWorkDeterministic: the work budget stops a callback at the same
// instruction in every run, also while other goroutines keep every core
// busy, and in proportion to the budget.
func TestWorkDeterministic(t *testing.T) {
	const work = 1_000_000
	idle := countTo(t, work)
	assert.Greater(t, idle, float64(work/10), "about a handful of instructions an iteration")

	stop := make(chan struct{})
	var wg sync.WaitGroup
	for range 4 {
		wg.Go(func() {
			x := 0
			for {
				select {
				case <-stop:
					return
				default:
					x++
				}
			}
		})
	}
	for range 3 {
		assert.Equal(t, idle, countTo(t, work), "the same count under load")
	}
	close(stop)
	wg.Wait()
	assert.InDelta(t, 2*idle, countTo(t, 2*work), 10, "twice the budget, twice the work")
}

// TestMemoryWithoutWork: with the work budget off, a callback that keeps
// building 1 MB strings is stopped by the memory limit.
func TestMemoryWithoutWork(t *testing.T) {
	w := newWorld(t, withWork(-1, 16<<20))
	w.spawn("", "budget/hoard_mb")
	w.spawn("", "helper/neighbour")
	w.step(1, 0.1)
	errs := w.scriptErrors()
	require.Len(t, errs, 1)
	assert.ErrorIs(t, errs[0], ErrMemory)
	assert.Regexp(t, `^testdata/scripts/budget/hoard_mb\.lua:\d+: exceeded its 16 MiB memory limit in onUpdate$`, errs[0].Message)
	assert.Equal(t, []string{"neighbour\t1"}, w.lines())
}

// TestCompileCharged: load and loadstring charge the compile by the
// source's size before compiling: a source too large for what is left of
// the budget stops the callback at the loadstring.
func TestCompileCharged(t *testing.T) {
	w := newWorld(t, withWork(1_000_000, 0))
	w.spawn("", "budget/big_load")
	w.step(1, 0.1)
	errs := w.scriptErrors()
	require.Len(t, errs, 1)
	assert.ErrorIs(t, errs[0], ErrBudget)
	assert.Equal(t, "testdata/scripts/budget/big_load.lua:7: exceeded its 1M-instruction budget in onUpdate", errs[0].Message)
	assert.Empty(t, w.lines())

	w = newWorld(t, withWork(DefaultWork, 0))
	w.spawn("", "budget/big_load")
	w.step(1, 0.1)
	w.requireNoErrors()
	assert.Equal(t, []string{"loaded\tfunction"}, w.lines())
}

// TestLibraryWorkCharged: a loop whose few instructions each make a
// library function go through 16 MiB is stopped after a handful of turns:
// the budget counts the bytes.
func TestLibraryWorkCharged(t *testing.T) {
	w := newWorld(t, withWork(1_000_000, -1))
	w.spawn("", "budget/upper_loop")
	start := time.Now()
	w.step(1, 0.1)
	t.Logf("stopped after %v", time.Since(start))
	errs := w.scriptErrors()
	require.Len(t, errs, 1)
	assert.ErrorIs(t, errs[0], ErrBudget)
	assert.Equal(t, "testdata/scripts/budget/upper_loop.lua:8: exceeded its 1M-instruction budget in onUpdate", errs[0].Message)
	assert.Less(t, time.Since(start), 5*raceSlowdown*time.Second, "a handful of turns, not millions")
}

// TestCeilingInsideCallback: with the work budget and the memory limit
// off, a callback that keeps building 1 MB strings and never returns is
// stopped by the memory ceiling.
func TestCeilingInsideCallback(t *testing.T) {
	goruntime.GC()
	live := []metrics.Sample{{Name: "/gc/heap/live:bytes"}}
	metrics.Read(live)
	ceiling := int64(live[0].Value.Uint64()) + 64<<20
	w := newWorld(t, withWork(-1, -1), func(_ *runtime.Options, o *Options) { o.MemoryCeiling = ceiling })
	w.spawn("", "budget/hoard_mb")
	w.spawn("", "helper/neighbour")
	w.step(1, 0.1)
	errs := w.scriptErrors()
	require.Len(t, errs, 1)
	assert.ErrorIs(t, errs[0], ErrMemory)
	assert.Regexp(t, `^testdata/scripts/budget/hoard_mb\.lua:\d+: exceeded its host's \d+ MiB memory ceiling in onUpdate$`, errs[0].Message)
	assert.Equal(t, []string{"neighbour\t1"}, w.lines())
}

// TestWallClock: a registered Go function that blocks is not work; the
// wall-clock backstop stops its caller at its next instruction once the
// function returns, with an error that matches ErrWallClock.
func TestWallClock(t *testing.T) {
	w := newWorld(t, func(_ *runtime.Options, o *Options) { o.WallClock = 50 * time.Millisecond })
	calls := 0
	require.NoError(t, w.h.Register("block", func(*runtime.Instance, []any) (any, error) {
		calls++
		time.Sleep(200 * time.Millisecond)
		return nil, nil
	}))
	w.spawn("", "budget/blocker")
	w.step(1, 0.1)
	errs := w.scriptErrors()
	require.Len(t, errs, 1)
	assert.ErrorIs(t, errs[0], ErrWallClock)
	assert.NotErrorIs(t, errs[0], ErrBudget)
	assert.Equal(t, "testdata/scripts/budget/blocker.lua:6: exceeded its 50ms wall-clock backstop in onUpdate", errs[0].Message)
	assert.Equal(t, 1, calls, "stopped when the first call returned")
}

// TestParseWork: --budget takes instructions, with or without a suffix,
// and durations at the fixed rate.
func TestParseWork(t *testing.T) {
	tests := []struct {
		in   string
		want int64
		err  bool
	}{
		{"0", 0, false},
		{"20000000", 20_000_000, false},
		{"20M", 20_000_000, false},
		{"2.5M", 2_500_000, false},
		{"20k", 20_000, false},
		{"1G", 1_000_000_000, false},
		{"100ms", DefaultWork, false},
		{"30ms", 3_000_000, false},
		{"1s", WorkPerSecond, false},
		{"1.5", 0, true},
		{"-5", 0, true},
		{"-5ms", 0, true},
		{"lots", 0, true},
		{"1e6", 0, true},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			got, err := ParseWork(tt.in)
			if tt.err {
				assert.Error(t, err)
				return
			}
			require.NoError(t, err)
			assert.Equal(t, tt.want, got)
			assert.Equal(t, got, WorkOf(DurationOf(got)), "a duration carries any count exactly")
		})
	}
	assert.Equal(t, "10M", FormatWork(DefaultWork))
	assert.Equal(t, "2.5M", FormatWork(2_500_000))
	assert.Equal(t, "1234", FormatWork(1234))
}
