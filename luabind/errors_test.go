package luabind

import (
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/luahost/luahost/runtime"
)

// TestUpdateError: a Lua error in onUpdate is reported once, as a
// *runtime.ScriptError locating it (file, line, script, callback, entity,
// frame, a short traceback); the instance is faulted (no more updates or
// events) while its neighbour runs on; its onDestroy still runs.
func TestUpdateError(t *testing.T) {
	w := newWorld(t)
	bad := w.spawn("bad", "errors/update")
	w.spawn("", "helper/neighbour")
	w.step(3, 0.1)

	errs := w.scriptErrors()
	require.Len(t, errs, 1, "reported once")
	se := errs[0]
	assert.Equal(t, "errors/update", se.Script)
	assert.Equal(t, "testdata/scripts/errors/update.lua", se.File)
	assert.Equal(t, 8, se.Line)
	assert.Equal(t, "onUpdate", se.Callback)
	assert.Equal(t, bad, se.Entity)
	assert.Equal(t, uint64(1), se.Frame)
	assert.Equal(t, "testdata/scripts/errors/update.lua:8: attempt to index a nil value (local 'target')", se.Message)
	assert.Contains(t, se.Traceback, "errors/update.lua:8:")
	assert.LessOrEqual(t, strings.Count(se.Traceback, "\n"), 10, "a short traceback")
	assert.NotContains(t, se.Traceback, ".go:", "no Go frames")
	assert.Contains(t, se.Error(), "in script errors/update, bad (entity 1:1), onUpdate, frame 1")
	assert.True(t, strings.HasPrefix(se.Error(), se.Message))

	insts, err := w.rt.Instances(bad)
	require.NoError(t, err)
	require.Len(t, insts, 1)
	assert.True(t, insts[0].Faulted())
	assert.False(t, insts[0].CreateFailed())
	assert.Equal(t, []string{"update\t1", "neighbour\t1", "neighbour\t2", "neighbour\t3"}, w.takeLines())

	ok, err := w.rt.Events().Notify("ping", nil, -1)
	require.NoError(t, err)
	assert.True(t, ok)
	_, err = w.rt.Kill(bad)
	require.NoError(t, err)
	w.h.Flush()
	assert.Equal(t, []string{"destroy after\t1\tupdates"}, w.takeLines(), "no event reached it; its onDestroy ran")
	assert.Len(t, w.errs, 1)
}

// TestCreateError: an instance whose onCreate failed is faulted and gets
// no callback at all, not even onDestroy.
func TestCreateError(t *testing.T) {
	w := newWorld(t)
	e := w.rt.Spawn()
	inst, err := w.h.Attach(e, "errors/create", nil)
	require.NoError(t, err, "Attach succeeds; the failure is reported")
	require.NoError(t, w.rt.Activate(e))
	assert.True(t, inst.Faulted())
	assert.True(t, inst.CreateFailed())
	errs := w.scriptErrors()
	require.Len(t, errs, 1)
	assert.Equal(t, "onCreate", errs[0].Callback)
	assert.Equal(t, uint64(0), errs[0].Frame)
	assert.Equal(t, 4, errs[0].Line)
	assert.Equal(t, "testdata/scripts/errors/create.lua:4: cannot start", errs[0].Message)

	w.step(2, 0.1)
	_, err = w.rt.Events().Notify("ping", nil, -1)
	require.NoError(t, err)
	_, err = w.rt.Kill(e)
	require.NoError(t, err)
	w.close()
	assert.Empty(t, w.out.String())
	assert.Len(t, w.errs, 1)
}

// TestErrorValues: an error with a 50 MB string is reported with a
// bounded message; an error with a table value is reported too. Both fault
// their instance only.
func TestErrorValues(t *testing.T) {
	tests := []struct {
		script string
		want   string
	}{
		{"errors/huge", `^testdata/scripts/errors/huge\.lua:5: x{100,}\.\.\. \(\d{8} bytes\)$`},
		{"errors/table", `^testdata/scripts/errors/table\.lua:4: .*table`},
	}
	for _, tt := range tests {
		t.Run(tt.script, func(t *testing.T) {
			w := newWorld(t, withBudget(5*time.Second, 1<<30)) // building 50 MB takes a while
			w.spawn("", tt.script)
			w.spawn("", "helper/neighbour")
			w.step(2, 0.1)
			errs := w.scriptErrors()
			require.Len(t, errs, 1)
			se := errs[0]
			assert.Regexp(t, tt.want, se.Message)
			assert.Less(t, len(se.Message), 1024, "a bounded message")
			assert.Less(t, len(se.Error()), 4096, "a bounded report")
			assert.Equal(t, "testdata/scripts/"+tt.script+".lua", se.File)
			assert.Equal(t, []string{"neighbour\t1", "neighbour\t2"}, w.lines())
		})
	}
}

// TestDestroyError: a failing onDestroy is reported; the entity is
// settled and reaped all the same.
func TestDestroyError(t *testing.T) {
	w := newWorld(t)
	e := w.spawn("", "errors/destroy", "helper/probe")
	_, err := w.rt.Kill(e)
	require.NoError(t, err)
	assert.False(t, w.rt.Alive(e))
	errs := w.scriptErrors()
	require.Len(t, errs, 1)
	assert.Equal(t, "onDestroy", errs[0].Callback)
	destroyed, _ := w.rt.Blackboard().Get("destroyed.probe")
	assert.Equal(t, 0.0, destroyed, "the next instance's onDestroy still ran")
}

// TestHandlerErrors: an event handler that fails, or returns something
// that is not plain data, faults its instance like any callback.
func TestHandlerErrors(t *testing.T) {
	tests := []struct {
		script, want string
	}{
		{"errors/handler", `^testdata/scripts/errors/handler\.lua:9: bad ping$`},
		{"errors/returns", `^testdata/scripts/errors/returns\.lua: event handler ping returned .*function`},
	}
	for _, tt := range tests {
		t.Run(tt.script, func(t *testing.T) {
			w := newWorld(t)
			e := w.spawn("", tt.script)
			w.step(1, 0.1)
			for range 2 {
				_, err := w.rt.Events().Notify("ping", "data", -1)
				require.NoError(t, err)
			}
			w.step(1, 0.1)
			errs := w.scriptErrors()
			require.Len(t, errs, 1, "reported once: the faulted instance gets no second event")
			assert.Regexp(t, tt.want, errs[0].Message)
			assert.Equal(t, "events.ping", errs[0].Callback)
			assert.Equal(t, e, errs[0].Entity)
			insts, _ := w.rt.Instances(e)
			require.Len(t, insts, 1)
			assert.True(t, insts[0].Faulted())
			if tt.script == "errors/handler" {
				assert.Equal(t, []string{"handler script update\t1", "ping\tdata"}, w.lines(), "no update after the fault")
			}
		})
	}
}

// TestErrorOnClose: an instance faulted earlier still gets its onDestroy
// at shutdown, and ctx.frame there is the last frame's.
func TestErrorOnClose(t *testing.T) {
	w := newWorld(t)
	w.spawn("", "errors/update")
	w.step(2, 0.1)
	w.takeLines()
	w.close()
	assert.Equal(t, []string{"destroy after\t1\tupdates"}, w.lines())
	var se *runtime.ScriptError
	require.ErrorAs(t, w.errs[0], &se)
}
