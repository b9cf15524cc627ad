package luabind

import (
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/luahost/luahost/runtime"
)

// TestEval runs console snippets against an instance of
// testdata/scripts/console/target.lua: what they print and return, their
// errors with the snippet's own lines, and that an error neither faults
// the instance nor is reported.
func TestEval(t *testing.T) {
	for _, tc := range []struct {
		name, code     string
		output, result string
		err            string
		errIs          error
	}{
		{name: "expression", code: "self.hp", result: "10"},
		{name: "several values", code: "1, nil, 'a', true", result: "1\tnil\t\"a\"\ttrue"},
		{name: "table", code: "self.bag", result: "{1, 2, gold = 3}"},
		{name: "vector", code: "self.at", result: "vec3(1, 2, 3)"},
		{name: "entity", code: "ctx.entity, ctx.entity:name()", result: "entity(1:1)\t\"box\""},
		{name: "statements", code: "local n = 0\nfor i = 1, 3 do n = n + i end\nreturn n", result: "6"},
		{name: "print", code: "print('hi', 1 + 1)", output: "hi\t2\n"},
		{name: "ctx.log", code: "ctx.log('here')", output: "target entity(1:1): here\n"},
		{name: "loaded module", code: "require('lib.counter').name", result: "\"lib.counter\""},
		{name: "error with line", code: "local x = 1\nreturn x + nil", err: "console:2: attempt to perform arithmetic on a nil value"},
		{name: "error()", code: "error('boom')", err: "console:1: boom"},
		{name: "syntax error", code: "self.hp +", err: "console:1:"},
		{name: "no file read", code: "require('lib.tracer')", err: "the console reads no files"},
		{name: "no script file read", code: "ctx.entity:attach('spinner')", err: "script \"spinner\" is not loaded, and the console reads no files"},
		{name: "a loaded script attaches", code: "ctx.entity:attach('console/target') return 'attached'", result: "\"attached\""},
		{name: "budget", code: "while true do end", err: "exceeded its", errIs: ErrBudget},
		{name: "cut output", code: "for i = 1, 20 do print(string.rep('x', 5000)) end", output: "\n... ("},
	} {
		t.Run(tc.name, func(t *testing.T) {
			w := newWorld(t, withBudget(30*time.Millisecond, 0))
			e := w.spawn("box")
			inst := w.attach(e, "console/target", nil)
			w.step(1, 1.0/60)

			ev, err := w.h.Eval(inst, tc.code)
			require.NoError(t, err)
			if tc.err != "" {
				require.NotNil(t, ev.Err, "result %q", ev.Result)
				assert.Contains(t, ev.Err.Message, tc.err)
				assert.Equal(t, EvalChunk, ev.Err.Callback)
				assert.Equal(t, e, ev.Err.Entity)
				if tc.errIs != nil {
					assert.ErrorIs(t, ev.Err, tc.errIs)
				}
			} else {
				require.Nil(t, ev.Err)
				assert.Equal(t, tc.result, ev.Result)
			}
			if strings.HasPrefix(tc.output, "\n") {
				assert.Contains(t, ev.Output, tc.output)
				assert.LessOrEqual(t, len(ev.Output), MaxEvalOutput+40)
			} else {
				assert.Equal(t, tc.output, ev.Output)
			}
			assert.Empty(t, w.out.String(), "the console's output went to the host's")
			assert.Empty(t, w.errs, "a snippet's error was reported")
			assert.False(t, inst.Faulted())
			w.step(1, 1.0/60)
			self, err := w.h.Eval(inst, "self.updates")
			require.NoError(t, err)
			assert.Equal(t, "2", self.Result, "the instance stopped updating after the snippet")
		})
	}
}

// TestEvalBudgetsOff: with the scripts' budgets off, a snippet still
// runs under DefaultWork (the console is not the trusted scripts), and
// the state runs on without a budget afterwards.
func TestEvalBudgetsOff(t *testing.T) {
	w := newWorld(t, withBudget(-1, -1), withoutBounds)
	e := w.spawn("box")
	inst := w.attach(e, "console/target", nil)
	w.step(1, 1.0/60)

	ev, err := w.h.Eval(inst, "while true do end")
	require.NoError(t, err)
	require.NotNil(t, ev.Err)
	assert.Equal(t, "console:1: exceeded its 10M-instruction budget in console", ev.Err.Message)
	assert.ErrorIs(t, ev.Err, ErrBudget)
	assert.False(t, inst.Faulted())

	w.step(1, 1.0/60)
	after, err := w.h.Eval(inst, "self.updates")
	require.NoError(t, err)
	require.Nil(t, after.Err)
	assert.Equal(t, "2", after.Result, "the instance stopped updating after the snippet")
	assert.Nil(t, inst.Script().(*Script).st.L.Context(), "the console's budget stayed on the state")
}

// TestEvalCoroutineOutlivesSnippet: with budgets off, a coroutine a
// snippet made runs on after the snippet: it does not keep a context that
// ended with the snippet.
func TestEvalCoroutineOutlivesSnippet(t *testing.T) {
	w := newWorld(t, withBudget(-1, 0))
	inst := w.attach(w.spawn("box"), "console/target", nil)
	w.step(1, 1.0/60)

	made, err := w.h.Eval(inst, "self.co = coroutine.create(function() while true do coroutine.yield(1) end end)")
	require.NoError(t, err)
	require.Nil(t, made.Err)
	resumed, err := w.h.Eval(inst, "coroutine.resume(self.co)")
	require.NoError(t, err)
	require.Nil(t, resumed.Err)
	assert.Equal(t, "true\t1", resumed.Result)
}

// TestEvalChangesSelf checks that a snippet's assignment is the
// instance's: the next frame's onUpdate sees it.
func TestEvalChangesSelf(t *testing.T) {
	w := newWorld(t)
	inst := w.attach(w.spawn("box"), "console/target", nil)
	ev, err := w.h.Eval(inst, "self.updates = 100")
	require.NoError(t, err)
	require.Nil(t, ev.Err)
	w.step(1, 1.0/60)
	ev, err = w.h.Eval(inst, "self.updates")
	require.NoError(t, err)
	assert.Equal(t, "101", ev.Result)
}

// TestEvalRefused checks the instances and moments Eval refuses.
func TestEvalRefused(t *testing.T) {
	w := newWorld(t)
	e := w.spawn("box")
	inst := w.attach(e, "console/target", nil)
	gone := w.attach(e, "console/target", nil)
	require.True(t, w.rt.Detach(gone))
	native, err := w.rt.Attach(e, &goScript{name: "native"}, nil)
	require.NoError(t, err)

	for _, tc := range []struct {
		name string
		inst *runtime.Instance
		code string
		want string
	}{
		{"detached", gone, "1", "is not live"},
		{"Go-native", native, "1", "not a Lua script instance"},
		{"too large", inst, strings.Repeat(" ", maxLoadSize+1), "more than"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := w.h.Eval(tc.inst, tc.code)
			require.Error(t, err)
			assert.True(t, errors.Is(err, ErrEval))
			assert.Contains(t, err.Error(), tc.want)
		})
	}
	// From inside a callback (a Go function an onCreate calls, between
	// frames), as from inside a frame.
	var inside error
	require.NoError(t, w.h.Register("evalNow", func(*runtime.Instance, []any) (any, error) {
		_, inside = w.h.Eval(inst, "1")
		return nil, nil
	}))
	require.NoError(t, w.h.Reload("console/caller", []byte(`return { onCreate = function() evalNow() end }`)))
	w.attach(e, "console/caller", nil)
	assert.ErrorIs(t, inside, runtime.ErrStepping)
	assert.ErrorIs(t, inside, ErrEval)

	w.close()
	_, err = w.h.Eval(inst, "1")
	assert.ErrorIs(t, err, runtime.ErrClosed)
}

// TestEvalBudgetsOffCoversWhatItRuns: with budgets off, what a snippet
// runs stays under the console's budget — the handlers of other scripts
// it causes, and the coroutines it made when a later snippet or a
// script in a later frame resumes them — so that no console input can
// hang the world, with the work budget off and with every limit off.
func TestEvalBudgetsOffCoversWhatItRuns(t *testing.T) {
	const spinner = "self.co = coroutine.create(function() while true do end end)"
	tests := []struct {
		name string
		run  func(t *testing.T, w *world, inst *runtime.Instance)
	}{
		{"a later snippet resumes it", func(t *testing.T, w *world, inst *runtime.Instance) {
			made, err := w.h.Eval(inst, spinner)
			require.NoError(t, err)
			require.Nil(t, made.Err)
			ev, err := w.h.Eval(inst, "return coroutine.resume(self.co)")
			require.NoError(t, err)
			if ev.Err != nil {
				assert.ErrorIs(t, ev.Err, ErrBudget)
			} else {
				assert.Contains(t, ev.Result, "false")
			}
		}},
		{"a script resumes it in a later frame", func(t *testing.T, w *world, inst *runtime.Instance) {
			made, err := w.h.Eval(inst, spinner)
			require.NoError(t, err)
			require.Nil(t, made.Err)
			w.step(1, 1.0/60)
			assert.Equal(t, "false\ta coroutine the console made exceeded its 10M-instruction budget\n", w.out.String())
			assert.False(t, inst.Faulted(), "the console's coroutine is not the resumer's fault")
		}},
		{"a coroutine made inside it", func(t *testing.T, w *world, inst *runtime.Instance) {
			made, err := w.h.Eval(inst, "self.co = coroutine.create(function() local inner = coroutine.create(function() while true do end end) return coroutine.resume(inner) end)")
			require.NoError(t, err)
			require.Nil(t, made.Err)
			w.step(1, 1.0/60)
			assert.Equal(t, "false\ta coroutine the console made exceeded its 10M-instruction budget\n", w.out.String())
		}},
		{"another script's handler", func(t *testing.T, w *world, inst *runtime.Instance) {
			other := w.attach(w.spawn("other"), "console/resumer", nil)
			ev, err := w.h.Eval(inst, "ctx.find('other'):send('spin')")
			require.NoError(t, err)
			require.NotNil(t, ev.Err)
			assert.ErrorIs(t, ev.Err, ErrBudget)
			assert.False(t, other.Faulted(), "the console's stop is not the handler's fault")
		}},
	}
	limits := []struct {
		name string
		opt  func(*runtime.Options, *Options)
	}{
		// The wall-clock backstop off too: 10M instructions under the
		// race detector on a loaded machine can take longer than it
		// waits, and it would then stop the resumer, not the console's
		// coroutine.
		{"work off", func(_ *runtime.Options, o *Options) { o.Budget, o.WallClock = -1, -1 }},
		{"every limit off", func(_ *runtime.Options, o *Options) {
			o.Budget, o.MemoryLimit, o.MemoryCeiling, o.WallClock = -1, -1, -1, -1
		}},
	}
	for _, tt := range tests {
		for _, lim := range limits {
			t.Run(tt.name+"/"+lim.name, func(t *testing.T) {
				w := newWorld(t, lim.opt)
				inst := w.attach(w.spawn("box"), "console/resumer", nil)
				w.step(1, 1.0/60)
				done := make(chan struct{})
				go func() {
					select {
					case <-done:
					case <-time.After(time.Minute):
						panic("the console's work ran past its budget")
					}
				}()
				tt.run(t, w, inst)
				close(done)
			})
		}
	}
}
