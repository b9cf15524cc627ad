package luabind

import (
	"fmt"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/luahost/luahost/runtime"
)

// copyBound is how much CPU time (cpuTime) a copy refused past its bounds
// may take: a
// million values, slow under -race, but nothing like the 2^22 paths of an
// exponential walk.
const copyBound = 15 * time.Second

// TestCopyBounded: data shared at 2^22 places (testdata/scripts/dag/) is
// never walked exponentially, wherever it is copied. With a short budget
// the callback's clock stops the copy (the copy is Go code, which the VM
// cannot interrupt: it checks the clock itself); with a long one the copy
// is refused past its bounds, as the error of the callback that made it
// (a handler's result: the handler's). Either way the frame is short and
// the neighbour runs in it.
func TestCopyBounded(t *testing.T) {
	tests := []struct {
		script string
		// callback is the callback reported with a long budget; short
		// with a short one: the outermost, onUpdate, except for a
		// handler's result, which is the handler's error either way.
		callback, short string
	}{
		{"dag/emit", "onUpdate", "onUpdate"},
		{"dag/send", "onUpdate", "onUpdate"},
		{"dag/blackboard", "onUpdate", "onUpdate"},
		{"dag/spawn", "onUpdate", "onUpdate"},
		{"dag/attach", "onUpdate", "onUpdate"},
		{"dag/call", "onUpdate", "onUpdate"},
		{"dag/result", "events.ask", "events.ask"},
	}
	for _, tt := range tests {
		for _, budget := range []time.Duration{hostileBudget, 10 * time.Second} {
			t.Run(fmt.Sprint(tt.script, " ", budget), func(t *testing.T) {
				// No memory limit: the copy's own bound is under test.
				w := newWorld(t, withBudget(budget, -1))
				require.NoError(t, w.h.Register("take", func(*runtime.Instance, []any) (any, error) { return nil, nil }))
				w.spawn("", tt.script)
				w.spawn("", "helper/neighbour")
				elapsed := cpuTime(func() { w.step(1, 0.1) })
				t.Logf("frame took %v", elapsed)
				if budget == hostileBudget {
					assert.Less(t, elapsed, hostileBound)
				} else {
					assert.Less(t, elapsed, copyBound)
				}
				errs := w.scriptErrors()
				require.Len(t, errs, 1)
				se := errs[0]
				t.Logf("reported: %s", se.Message)
				if budget == hostileBudget {
					assert.Equal(t, tt.short, se.Callback)
					assert.ErrorIs(t, se, ErrBudget)
				} else {
					assert.Equal(t, tt.callback, se.Callback)
					assert.Contains(t, se.Message, "more than 1048576 values or 64 MiB in one copy")
				}
				assert.Contains(t, w.lines(), "neighbour\t1")
			})
		}
	}
}

// TestCopyBoundedLoad: properties shared at 2^22 places make the script
// fail to load, quickly; a self holding such data makes its reload
// refused, quickly, and the old version runs on.
func TestCopyBoundedLoad(t *testing.T) {
	w := newWorld(t, withBudget(hostileBudget, 0))
	var err error
	elapsed := cpuTime(func() { _, err = w.h.Load("dag/properties") })
	require.Error(t, err)
	assert.Contains(t, err.Error(), "field 'properties': not plain data: properties.d.")
	assert.Contains(t, err.Error(), "cannot store more than 1048576 values")
	assert.Less(t, elapsed, copyBound)

	inst := w.attach(w.rt.Spawn(), "dag/self", nil)
	w.requireNoErrors()
	elapsed = cpuTime(func() { err = w.h.Reload("dag/self", []byte("return { onUpdate = function() end }")) })
	require.Error(t, err)
	assert.Contains(t, err.Error(), "more than 1048576 values")
	assert.Less(t, elapsed, copyBound)
	assert.True(t, inst.Live())
	assert.Nil(t, w.h.Script("dag/self").st.onUpdate, "the old version runs on")
}

// TestCopyKeepsSmallDAG: a table shared at a few places is copied at
// each, as a tree.
func TestCopyKeepsSmallDAG(t *testing.T) {
	w := newWorld(t)
	L := w.h.states.Get()
	defer L.Close()
	require.NoError(t, L.DoString(`local dag = {} for i = 1, 10 do dag = { a = dag, b = dag } end; shared = dag`))
	p, err := toPlain(L.GetGlobal("shared"), "shared")
	require.NoError(t, err)
	leaves := 0
	var walk func(v any)
	walk = func(v any) {
		tbl := v.(*runtime.Table)
		if len(tbl.Fields) == 0 {
			leaves++
		}
		for _, f := range tbl.Fields {
			walk(f.Value)
		}
	}
	walk(p)
	assert.Equal(t, 1024, leaves)
}
