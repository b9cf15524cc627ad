package luabind

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/luahost/luahost/runtime"
)

// TestNestedClock: a callback that keeps running nested callbacks which
// never return is stopped within its own budget, never given a fresh one;
// it alone is reported, at its own line (the call that ran the nested
// callback), and the nested scripts are not blamed.
func TestNestedClock(t *testing.T) {
	tests := []struct {
		script string
		line   int
		mem    int64
		cause  error
	}{
		{"hostile/attach_loop", 8, hostileMemory, ErrBudget},
		{"hostile/emit_loop", 8, hostileMemory, ErrBudget},
		{"hostile/fill_loop", 7, 8 << 20, ErrMemory},
	}
	for _, tt := range tests {
		t.Run(tt.script, func(t *testing.T) {
			budget, bound := hostileBudget, hostileBound
			if tt.cause == ErrMemory {
				// Long, so that the memory limit, not the clock, stops
				// it, also under -race on a busy machine.
				budget, bound = 10*hostileBound, 10*hostileBound
			}
			w := newWorld(t, withBudget(budget, tt.mem))
			w.spawn("", tt.script)
			w.spawn("", "helper/neighbour")

			elapsed := cpuTime(func() { w.step(1, 0.1) })
			t.Logf("frame took %v", elapsed)
			assert.Less(t, elapsed, bound, "stopped within its budget, not 200 of them")
			errs := w.scriptErrors()
			require.Len(t, errs, 1, "the outer callback alone is reported")
			se := errs[0]
			assert.Equal(t, tt.script, se.Script)
			assert.Equal(t, "onUpdate", se.Callback)
			assert.Equal(t, "testdata/scripts/"+tt.script+".lua", se.File)
			assert.Equal(t, tt.line, se.Line, "the call that ran the nested callback: %s", se.Message)
			assert.ErrorIs(t, se, tt.cause)
			assert.Equal(t, []string{"neighbour\t1"}, w.lines())
		})
	}
}

// TestNestedNotBlamed: a callback that spends most of its budget and then
// attaches scripts with a small onCreate is faulted for its own work, at
// its attach line; no small onCreate is ever blamed for it.
func TestNestedNotBlamed(t *testing.T) {
	const work = 3_000_000
	w := newWorld(t, withWork(work, 0))
	require.NoError(t, w.rt.Blackboard().Set("spend", float64(work-2000)))
	w.spawn("", "hostile/boss")
	w.step(1, 0.1)
	errs := w.scriptErrors()
	require.Len(t, errs, 1, "the boss alone")
	assert.Equal(t, "hostile/boss", errs[0].Script)
	assert.Equal(t, "onUpdate", errs[0].Callback)
	assert.Equal(t, "testdata/scripts/hostile/boss.lua:9: exceeded its 3M-instruction budget in onUpdate", errs[0].Message)
}

// nativeAttacher is a Go-native script whose Update attaches a Lua script
// and records that Attach returned.
type nativeAttacher struct {
	h        *Host
	script   string
	returned int
}

func (s *nativeAttacher) Name() string  { return "native" }
func (s *nativeAttacher) Priority() int { return 0 }
func (s *nativeAttacher) Update(inst *runtime.Instance, _ float64) error {
	if _, err := s.h.Attach(inst.Entity(), s.script, nil); err != nil {
		return err
	}
	s.returned++
	return nil
}

// TestNestedOwnBudget: a Lua callback run by Go code (a Go-native script's
// Update, which has no clock) runs out of a budget of its own and is
// faulted alone; the Go caller goes on.
func TestNestedOwnBudget(t *testing.T) {
	w := newWorld(t, withBudget(hostileBudget, hostileMemory))
	native := &nativeAttacher{h: w.h, script: "hostile/create_loop"}
	e := w.rt.Spawn()
	_, err := w.rt.Attach(e, native, nil)
	require.NoError(t, err)
	require.NoError(t, w.rt.Activate(e))
	w.step(2, 0.1)
	assert.Equal(t, 2, native.returned)
	errs := w.scriptErrors()
	require.Len(t, errs, 2, "one onCreate a frame")
	for _, se := range errs {
		assert.Equal(t, "hostile/create_loop", se.Script)
		assert.Equal(t, "onCreate", se.Callback)
		assert.ErrorIs(t, se, ErrBudget)
	}
}

// TestHandlerResultNotPlain: a handler's result that cannot be copied is
// that handler's error: it is faulted, and the emitter goes on.
func TestHandlerResultNotPlain(t *testing.T) {
	w := newWorld(t)
	w.spawn("", "helper/badresult")
	w.spawn("", "helper/asker")
	w.step(2, 0.1)
	errs := w.scriptErrors()
	require.Len(t, errs, 1)
	assert.Equal(t, "helper/badresult", errs[0].Script)
	assert.Equal(t, "events.ask", errs[0].Callback)
	assert.ErrorIs(t, errs[0], runtime.ErrNotPlain)
	assert.Equal(t, []string{"ask returned\ttrue", "ask returned\ttrue"}, w.lines())
}

// TestEventDepthBlamesTheChain: when a chain of nested events reaches the
// nesting limit, the chain's outermost callback is faulted, at its own
// line, not the handler whose ordinary emit was the last straw.
func TestEventDepthBlamesTheChain(t *testing.T) {
	w := newWorld(t)
	w.spawn("", "hostile/nest_chain")
	innocent := w.attach(w.spawn("innocent"), "helper/bait_handler", nil)
	w.step(1, 0.1)
	errs := w.scriptErrors()
	require.Len(t, errs, 1, "the chain's origin alone is faulted")
	assert.Equal(t, "hostile/nest_chain", errs[0].Script)
	assert.Equal(t, "onUpdate", errs[0].Callback)
	assert.ErrorIs(t, errs[0], runtime.ErrEventDepth)
	assert.Equal(t, "testdata/scripts/hostile/nest_chain.lua:12: exceeded its event nesting limit in onUpdate", errs[0].Message)
	assert.False(t, innocent.Faulted(), "the handler at the bottom is not blamed")
}
