package luabind

import (
	"errors"
	"runtime/metrics"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/luahost/luahost/runtime"
)

const (
	// hostileBudget is the callback budget of the hostile tests.
	hostileBudget = 20 * time.Millisecond
	// hostileMemory is their memory limit: low, because touching fresh
	// memory is slow on some machines and a single string concatenation
	// cannot be interrupted.
	hostileMemory = 16 << 20
	// hostileBound is how much CPU time a frame with one hostile callback
	// may take (cpuTime: a loaded machine does not stretch it): longer
	// under the race detector, which runs the same work slower; a budget
	// that did not work would take forever (or crash).
	hostileBound = raceSlowdown * time.Second
)

// TestHostile runs scripts that try to hang or exhaust the host, each with
// a 20ms budget and a 16 MiB memory limit, beside a neighbour. Each one
// ends as an error of its own callback (or, for a sparse write, completes
// harmlessly), quickly, and the neighbour runs in the same frame.
func TestHostile(t *testing.T) {
	budget := "exceeded its 2M-instruction budget in "
	memory := "exceeded its 16 MiB memory limit in onUpdate"
	tests := []struct {
		script   string
		callback string
		want     []string // any of these in the message; none: no error
		cause    error
	}{
		{"hostile/loop", "onUpdate", []string{budget + "onUpdate"}, ErrBudget},
		{"hostile/pcall", "onUpdate", []string{budget + "onUpdate"}, ErrBudget},
		{"hostile/xpcall_nest", "onUpdate", []string{budget + "onUpdate"}, ErrBudget},
		{"hostile/coroutine", "onUpdate", []string{budget + "onUpdate"}, ErrBudget},
		{"hostile/wrap", "onUpdate", []string{budget + "onUpdate"}, ErrBudget},
		{"hostile/yield", "onUpdate", []string{budget + "onUpdate"}, ErrBudget},
		{"hostile/event", "onUpdate", []string{budget + "onUpdate"}, ErrBudget},
		{"hostile/destroy", "onDestroy", []string{budget + "onDestroy"}, ErrBudget},
		{"hostile/create", "onUpdate", []string{budget + "onUpdate"}, ErrBudget},
		{"hostile/create_loop", "onCreate", []string{budget + "onCreate"}, ErrBudget},
		// 12,000 frames take a few milliseconds; a race build may reach
		// the 20ms budget first.
		{"hostile/recursion", "onUpdate", []string{"stack overflow", budget + "onUpdate"}, nil},
		// Each level builds a longer key: the memory limit may stop it
		// before the 12,000-frame call stack is full.
		{"hostile/metarecursion", "onUpdate", []string{"stack overflow", memory, budget + "onUpdate"}, nil},
		{"hostile/unpack", "onUpdate", []string{"too many results to unpack"}, nil},
		{"hostile/growth", "onUpdate", []string{budget + "onUpdate", memory}, nil},
		{"hostile/concat", "onUpdate", []string{"string concatenation: result too large", budget + "onUpdate", memory}, nil},
		{"hostile/sparse", "", nil, nil},
	}
	for _, tt := range tests {
		t.Run(tt.script, func(t *testing.T) {
			w := newWorld(t, withBudget(hostileBudget, hostileMemory))
			w.spawn("", tt.script)
			w.spawn("", "helper/neighbour")

			elapsed := cpuTime(func() { w.step(1, 0.1) })
			t.Logf("%s: frame took %v", tt.script, elapsed)
			assert.Less(t, elapsed, hostileBound, "the frame is bounded")
			assert.Contains(t, w.lines(), "neighbour\t1", "the neighbour ran in the same frame")

			errs := w.scriptErrors()
			if tt.want == nil {
				assert.Empty(t, errs)
				return
			}
			require.Len(t, errs, 1, "one error")
			se := errs[0]
			t.Logf("reported: %s", se.Message)
			matched := slices.ContainsFunc(tt.want, func(want string) bool { return strings.Contains(se.Message, want) })
			assert.True(t, matched, "message %q contains one of %q", se.Message, tt.want)
			assert.Equal(t, tt.callback, se.Callback)
			assert.Regexp(t, `^testdata/scripts/hostile/`, se.Message, "the message locates the script")
			if tt.cause != nil {
				assert.True(t, errors.Is(se, tt.cause), "wraps %v", tt.cause)
			}

			// The faulted instance is out; the neighbour runs on.
			w.takeLines()
			w.step(1, 0.1)
			assert.Equal(t, []string{"neighbour\t2"}, w.lines())
			assert.Len(t, w.errs, 1, "reported once")
		})
	}
}

// TestHostileSparse: a sparse write far past the array part neither
// errors nor allocates an array up to the index.
func TestHostileSparse(t *testing.T) {
	w := newWorld(t, withBudget(hostileBudget, hostileMemory))
	w.spawn("", "hostile/sparse")
	sample := []metrics.Sample{{Name: "/gc/heap/allocs:bytes"}}
	metrics.Read(sample)
	before := sample[0].Value.Uint64()
	w.step(1, 0.1)
	metrics.Read(sample)
	allocated := sample[0].Value.Uint64() - before
	t.Logf("allocated %d bytes", allocated)
	assert.Less(t, allocated, uint64(16<<20), "no array of 64M slots")
	w.requireNoErrors()
}

// TestBudgetOff: with the work budget, the memory limit, the backstop and
// the ceiling all off, states carry no context and normal scripts, coroutines
// included, run as usual.
func TestBudgetOff(t *testing.T) {
	w := newWorld(t, withBudget(-1, -1), withoutBounds)
	assert.Nil(t, w.h.budget)
	w.spawn("", "spinner")
	w.spawn("", "helper/neighbour")
	w.step(3, 0.5)
	assert.Nil(t, w.h.Script("spinner").st.L.Context(), "no per-instruction context check")
	assert.Equal(t, []string{"neighbour\t1", "neighbour\t2", "neighbour\t3"}, w.takeLines())
	w.close()
	assert.Equal(t, []string{"bye\tentity(1:1)\t135\t3"}, w.lines())
	w.requireNoErrors()
}

// TestStraightUpdate: an onUpdate of straight-line code is charged its
// length at once and runs without a look at the budget before each
// instruction, but what it reaches through a metamethod runs counted and
// is stopped; a budget smaller than the callback stops it as before; and
// the callbacks compute what they compute counted.
func TestStraightUpdate(t *testing.T) {
	timingOff := func(_ *runtime.Options, o *Options) { o.Timing = TimingOff }
	t.Run("metamethod loop", func(t *testing.T) {
		w := newWorld(t, withBudget(hostileBudget, hostileMemory), timingOff)
		w.spawn("", "hostile/straight_meta")
		w.spawn("", "helper/neighbour")
		require.Positive(t, w.h.Script("hostile/straight_meta").st.straightUpdate(), "the onUpdate is straight-line code")
		w.step(1, 0.1)
		errs := w.scriptErrors()
		require.Len(t, errs, 1)
		assert.Equal(t, "testdata/scripts/hostile/straight_meta.lua:6: exceeded its 2M-instruction budget in onUpdate", errs[0].Message)
		assert.Equal(t, []string{"neighbour\t1"}, w.lines(), "the rest keeps running")
	})
	t.Run("budget below its length", func(t *testing.T) {
		w := newWorld(t, timingOff, func(_ *runtime.Options, o *Options) { o.Work = 20 })
		w.spawn("", "run/straight")
		require.Greater(t, w.h.Script("run/straight").st.straightUpdate(), int64(20))
		w.step(1, 0.1)
		errs := w.scriptErrors()
		require.Len(t, errs, 1)
		assert.Equal(t, "testdata/scripts/run/straight.lua:9: exceeded its 20-instruction budget in onUpdate", errs[0].Message)
	})
	t.Run("reloaded to a loop", func(t *testing.T) {
		w := newWorld(t, withBudget(hostileBudget, hostileMemory), timingOff)
		w.spawn("", "run/straight")
		w.step(1, 0.1)
		require.Positive(t, w.h.Script("run/straight").st.straightUpdate())
		require.NoError(t, w.h.Reload("run/straight", []byte("return { onUpdate = function(self) while true do end end }")))
		assert.Zero(t, w.h.Script("run/straight").st.straightUpdate(), "the new onUpdate loops")
		w.step(1, 0.1)
		errs := w.scriptErrors()
		require.Len(t, errs, 1)
		assert.ErrorIs(t, errs[0], ErrBudget, "the loop is counted and stopped")
	})
	t.Run("same results", func(t *testing.T) {
		play := func(configure ...func(*runtime.Options, *Options)) []string {
			w := newWorld(t, configure...)
			for range 50 {
				w.spawn("", "run/straight")
			}
			w.step(200, 1.0/60)
			w.close()
			w.requireNoErrors()
			return w.lines()
		}
		assertSameResults(t, 50, play)
	})
}

// assertSameResults checks that a world that play builds and runs prints
// n lines under the default budget, untimed, and the same lines with
// every limit off and with every callback timed: running straight-line
// code unlooked at changes no result.
func assertSameResults(t *testing.T, n int, play func(configure ...func(*runtime.Options, *Options)) []string) {
	t.Helper()
	timingOff := func(_ *runtime.Options, o *Options) { o.Timing = TimingOff }
	budgeted := play(timingOff)
	assert.Len(t, budgeted, n)
	assert.Equal(t, play(withBudget(-1, -1), withoutBounds, timingOff), budgeted)
	assert.Equal(t, play(func(_ *runtime.Options, o *Options) { o.Timing = TimingExact }), budgeted)
}

// TestStraightCallbacks: event handlers and timer callbacks of
// straight-line code are charged their length at once, as such an
// onUpdate is: what they reach through a metamethod still runs counted
// and is stopped, a budget smaller than the callback stops it where it
// did, and they compute what they compute counted.
func TestStraightCallbacks(t *testing.T) {
	timingOff := func(_ *runtime.Options, o *Options) { o.Timing = TimingOff }
	t.Run("handler reaching a loop", func(t *testing.T) {
		w := newWorld(t, withBudget(hostileBudget, hostileMemory), timingOff)
		w.spawn("", "hostile/straight_handler")
		st := w.h.Script("hostile/straight_handler").st
		poke := st.handler("poke")
		require.Positive(t, st.straightLenOf(poke), "the handler is straight-line code")
		_, err := w.rt.Events().Notify("poke", 1, -1)
		require.NoError(t, err)
		errs := w.scriptErrors()
		require.Len(t, errs, 1)
		assert.Equal(t, "testdata/scripts/hostile/straight_handler.lua:6: exceeded its 2M-instruction budget in events.poke", errs[0].Message)
	})
	t.Run("timer reaching a loop", func(t *testing.T) {
		w := newWorld(t, withBudget(hostileBudget, hostileMemory), timingOff)
		e := w.rt.Spawn()
		w.attach(e, "hostile/straight_handler", map[string]any{"timer": true})
		require.NoError(t, w.rt.Activate(e))
		w.spawn("", "helper/neighbour")
		w.step(2, 0.1)
		errs := w.scriptErrors()
		require.Len(t, errs, 1)
		assert.Equal(t, "testdata/scripts/hostile/straight_handler.lua:6: exceeded its 2M-instruction budget in timer spring", errs[0].Message)
		assert.Equal(t, []string{"neighbour\t1", "neighbour\t2"}, w.lines(), "the rest keeps running")
	})
	t.Run("budget below its length", func(t *testing.T) {
		w := newWorld(t, timingOff, func(_ *runtime.Options, o *Options) { o.Work = 20 })
		w.spawn("", "run/straight_handler")
		st := w.h.Script("run/straight_handler").st
		require.Greater(t, st.straightLenOf(st.handler("poke")), int64(20))
		_, err := w.rt.Events().Notify("poke", 5, -1)
		require.NoError(t, err)
		errs := w.scriptErrors()
		require.Len(t, errs, 1)
		assert.Equal(t, "testdata/scripts/run/straight_handler.lua:17: exceeded its 20-instruction budget in events.poke", errs[0].Message, "where counting stops it")
	})
	t.Run("same results", func(t *testing.T) {
		play := func(configure ...func(*runtime.Options, *Options)) []string {
			w := newWorld(t, configure...)
			for range 20 {
				w.spawn("", "run/straight_handler")
			}
			for i := range 30 {
				_, err := w.rt.Events().Notify("poke", float64(i%5), -1)
				require.NoError(t, err)
				w.step(1, 1.0/30)
			}
			w.close()
			w.requireNoErrors()
			return w.lines()
		}
		assertSameResults(t, 20, play)
	})
}

// TestLoadReaderStopped: a load whose reader never returns is stopped by
// the budget, which load's protection of its reader does not catch.
func TestLoadReaderStopped(t *testing.T) {
	w := newWorld(t, withBudget(hostileBudget, hostileMemory))
	w.spawn("", "hostile/load_reader")
	w.spawn("", "helper/neighbour")
	w.step(1, 0.1)
	errs := w.scriptErrors()
	require.Len(t, errs, 1)
	assert.ErrorIs(t, errs[0], ErrBudget)
	assert.Equal(t, []string{"neighbour\t1"}, w.lines(), "nothing caught, and the rest keeps running")
}

// TestSpawnCharged: a spawn is charged the work of making the entity
// (spawnWork) besides its instructions: a loop of spawns under a budget of
// 64,000 instructions makes fewer than 1,000 entities.
func TestSpawnCharged(t *testing.T) {
	w := newWorld(t, func(_ *runtime.Options, o *Options) { o.Work = 64_000 })
	w.spawn("", "hostile/spawn_loop")
	w.step(1, 0.1)
	errs := w.scriptErrors()
	require.Len(t, errs, 1)
	assert.Equal(t, "testdata/scripts/hostile/spawn_loop.lua:6: exceeded its 64k-instruction budget in onUpdate", errs[0].Message)
	spawned := int(w.rt.Stats().Spawns) - 1
	assert.Greater(t, spawned, 64_000/(spawnWork+8), "each spawn costs its instructions and spawnWork")
	assert.LessOrEqual(t, spawned, 64_000/spawnWork)
}

// TestQueryCharged: a query is charged the entities it considers
// (queryWork) and those it returns (queryHitWork) besides its
// instructions: a loop of queries over a crowd of 1,000 stops after as
// many queries as the budget pays for.
func TestQueryCharged(t *testing.T) {
	const work, crowd = 200_000, 1_000
	tests := []struct {
		name             string
		query            any
		considered, hits int
	}{
		{"every entity", map[string]any{}, crowd + 1, crowd + 1},
		{"a filter nothing passes", map[string]any{"script": "nobody"}, crowd + 1, 0},
		{"near, within a radius", map[string]any{"near": []any{0.0, 0.0, 0.0}, "radius": 1e9}, crowd + 1, crowd + 1},
		{"by name", "findAll", crowd, crowd},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w := newWorld(t, func(_ *runtime.Options, o *Options) { o.Work = work })
			for range crowd {
				w.spawn("crowd")
			}
			e := w.rt.Spawn()
			w.attach(e, "hostile/query_loop", map[string]any{"query": tt.query})
			require.NoError(t, w.rt.Activate(e))
			w.step(1, 0.1)
			errs := w.scriptErrors()
			require.Len(t, errs, 1)
			assert.ErrorIs(t, errs[0], ErrBudget)
			cost := int(queryCost(tt.considered, tt.hits))
			queries := len(w.lines())
			assert.LessOrEqual(t, queries, work/cost, "each query costs what it considered and returned")
			assert.GreaterOrEqual(t, queries, work/(cost+32), "and little more")
		})
	}
}

// TestBudgetNested: an event handler that never returns, run by its own
// instance's onUpdate, is stopped without blame when the emitter's clock
// runs out; the emitter is faulted at the emit line, once.
func TestBudgetNested(t *testing.T) {
	w := newWorld(t, withBudget(hostileBudget, hostileMemory))
	w.spawn("", "hostile/event")
	w.spawn("", "helper/neighbour")
	w.step(1, 0.1)
	errs := w.scriptErrors()
	require.Len(t, errs, 1)
	assert.Equal(t, "onUpdate", errs[0].Callback)
	assert.Equal(t, "testdata/scripts/hostile/event.lua:7: exceeded its 2M-instruction budget in onUpdate", errs[0].Message)
	assert.Equal(t, []string{"neighbour\t1"}, w.lines(), "the emitter did not run to its end")
}

// TestMemoryLimit: with a long work budget, a runaway allocation is
// stopped by the memory limit alone.
// The budget is long, so that a race build on a busy machine, where the
// measures of the Lua data are slow, is stopped by the memory limit too.
func TestMemoryLimit(t *testing.T) {
	w := newWorld(t, withBudget(10*hostileBound, 8<<20))
	w.spawn("", "hostile/growth")
	w.spawn("", "helper/neighbour")
	elapsed := cpuTime(func() { w.step(1, 0.1) })
	t.Logf("frame took %v", elapsed)
	assert.Less(t, elapsed, 10*hostileBound)
	errs := w.scriptErrors()
	require.Len(t, errs, 1)
	assert.Regexp(t, `^testdata/scripts/hostile/growth\.lua:\d+: exceeded its 8 MiB memory limit in onUpdate$`, errs[0].Message)
	assert.ErrorIs(t, errs[0], ErrMemory)
	assert.Equal(t, []string{"neighbour\t1"}, w.lines())
}
