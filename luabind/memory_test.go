package luabind

import (
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/luahost/luahost/luabind/internal/budget"
	"github.com/luahost/luahost/luabind/internal/gopherx"
)

// sink keeps the compiler from dropping the allocations of
// TestMemoryLimitPerRuntime's allocating goroutine.
var sink atomic.Pointer[[]byte]

// TestMemoryLimitPerRuntime: a callback that allocates nothing is never
// stopped by its memory limit while another runtime (whose runaway is
// stopped by its own limit) and another goroutine allocate hundreds of
// megabytes meanwhile.
func TestMemoryLimitPerRuntime(t *testing.T) {
	quiet := newWorld(t, withBudget(20*time.Second, hostileMemory))
	busy := quiet.attach(quiet.rt.Spawn(), "helper/busy", map[string]any{"rounds": 300})
	require.NoError(t, quiet.rt.Activate(busy.Entity()))

	other := newWorld(t, withBudget(10*time.Second, hostileMemory))
	stop := make(chan struct{})
	var wg sync.WaitGroup
	var otherFrames atomic.Int64
	wg.Add(2)
	go func() {
		// Another runtime: a runaway allocation every frame.
		defer wg.Done()
		for {
			select {
			case <-stop:
				return
			default:
			}
			e := other.rt.Spawn()
			if _, err := other.h.Attach(e, "hostile/growth", nil); err != nil {
				panic(err)
			}
			_ = other.rt.Activate(e)
			_ = other.rt.Step(0.1)
			otherFrames.Add(1)
		}
	}()
	go func() {
		// Any goroutine: garbage, fast.
		defer wg.Done()
		for {
			select {
			case <-stop:
				return
			default:
			}
			b := make([]byte, 1<<20)
			sink.Store(&b)
		}
	}()
	// Let the others run a frame first, so that they allocate all along.
	for otherFrames.Load() == 0 {
		time.Sleep(time.Millisecond)
	}
	start := time.Now()
	quiet.step(1, 0.1)
	elapsed := time.Since(start)
	close(stop)
	wg.Wait()

	t.Logf("the quiet frame took %v while the other runtime ran %d frames", elapsed, otherFrames.Load())
	quiet.requireNoErrors()
	assert.Equal(t, []string{"busy done"}, quiet.lines())
	errs := other.scriptErrors()
	require.NotEmpty(t, errs)
	assert.ErrorIs(t, errs[0], ErrMemory, "the other runtime's runaway is stopped by its own limit: %s", errs[0].Message)
}

// BenchmarkBudgetDone measures what gopher-lua's per-instruction check
// costs the budget: Done, which counts the instruction and compares the
// count with the next one worth a look (the work limit or the next read
// of the allocation counter for the memory limit). This is the whole
// per-instruction price of the work budget and the memory limit.
func BenchmarkBudgetDone(b *testing.B) {
	bud := budget.New(budget.Options{Work: 1 << 62, Memory: DefaultMemoryLimit, Measure: func(int64) (int64, int64) { return 0, 0 }})
	defer bud.Close()
	bud.Arm()
	b.ReportAllocs()
	for b.Loop() {
		select {
		case <-bud.Done():
			b.Fatal("fired")
		default:
		}
	}
}

// BenchmarkMeasure10000 measures one measure of a host's Lua data, the
// walk the memory limit takes when the process allocated a quarter of
// the limit during a callback (and the ceiling, near the ceiling): 10,000
// spinner instances, each with its self, and the spinner's state.
func BenchmarkMeasure10000(b *testing.B) {
	rt, h := newBenchWorld(b, benchEntities, DefaultBudget)
	defer h.Close()
	require.NoError(b, rt.Step(1.0/60))
	b.ReportAllocs()
	var bytes int64
	for b.Loop() {
		bytes, _ = h.measureLua(0)
	}
	b.ReportMetric(float64(bytes)/(1<<20), "MiB-measured")
}

// TestSizer: a measure counts each table, function and long string once
// however many places hold it, ends on cycles, and grows with the data.
func TestSizer(t *testing.T) {
	w := newWorld(t)
	L := w.h.states.Get()
	defer L.Close()
	size := func(code string) int64 {
		require.NoError(t, L.DoString("v = "+code))
		z := newSizer(&pointerSet{})
		z.value(L.GetGlobal("v"))
		return z.bytes
	}
	small := size(`{1, 2, 3}`)
	assert.Equal(t, int64(gopherx.TableBytes+3*gopherx.EntryBytes), small)
	assert.Equal(t, int64(gopherx.TableBytes+2*gopherx.EntryBytes+2*gopherx.StringBytes+len("a")+len("b")), size(`{a = 1, b = 2}`))
	cyclic := size(`(function() local t = {} t.self = t return t end)()`)
	assert.Equal(t, int64(gopherx.TableBytes+gopherx.EntryBytes+gopherx.StringBytes+len("self")), cyclic, "a cycle counts once")
	shared := size(`(function() local s = {1, 2, 3} return {s, s, s} end)()`)
	assert.Equal(t, gopherx.TableBytes+3*gopherx.EntryBytes+small, shared, "a shared table counts once")
	long := size(`(function() local s = ("x"):rep(1000) return {s, s} end)()`)
	assert.Equal(t, int64(gopherx.TableBytes+2*gopherx.EntryBytes+gopherx.StringBytes+1000), long, "a long string held twice counts once")
	mixed := size(`{1, 2, nil, 4, x = {}}`)
	assert.Greater(t, mixed, small, "array and hash parts both count")
}
