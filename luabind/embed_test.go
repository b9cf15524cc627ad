package luabind

import (
	"errors"
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/luahost/luahost/luabind/internal/watch"
	"github.com/luahost/luahost/runtime"
)

// TestRegisterRefused: Register refuses the sandbox's own globals, a
// name registered before and what no script can spell (a reserved word,
// goto included), and the sandbox's function stays in place.
func TestRegisterRefused(t *testing.T) {
	w := newWorld(t)
	nop := func(*runtime.Instance, []any) (any, error) { return "replaced", nil }
	require.NoError(t, w.h.Register("buy", nop))
	tests := []struct {
		name string
		want string
	}{
		{"print", `register "print": the sandbox's own global print cannot be replaced`},
		{"require", `register "require": the sandbox's own global require cannot be replaced`},
		{"math", `register "math": the sandbox's own global math cannot be replaced`},
		{"_G", `register "_G": the sandbox's own global _G cannot be replaced`},
		{"pairs", `register "pairs": the sandbox's own global pairs cannot be replaced`},
		{"tostring", `register "tostring": the sandbox's own global tostring cannot be replaced`},
		{"string", `register "string": the sandbox's own global string cannot be replaced`},
		{"coroutine", `register "coroutine": the sandbox's own global coroutine cannot be replaced`},
		{"_VERSION", `register "_VERSION": the sandbox's own global _VERSION cannot be replaced`},
		{"buy", `register "buy": already registered`},
		{"goto", `register "goto": not a valid Lua name`},
		{"while", `register "while": not a valid Lua name`},
		{"2x", `register "2x": not a valid Lua name`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.EqualError(t, w.h.Register(tt.name, nop), tt.want)
		})
	}
	assert.EqualError(t, w.h.Register("sell", nil), `register "sell": nil function`)
	w.spawn("", "helper/printer")
	w.h.Flush()
	assert.Equal(t, []string{"created\tentity(1:1)"}, w.lines(), "print is the sandbox's")
}

var errNoGold = errors.New("not enough gold")

// TestGoErrorMatchable: a Go error returned by a registered function and
// raised through Lua stays matchable with errors.Is in the report, whose
// message names the function once. A script that makes an error of its
// own from it reports its own.
func TestGoErrorMatchable(t *testing.T) {
	for _, wrapped := range []bool{false, true} {
		t.Run(fmt.Sprint("prefixed=", wrapped), func(t *testing.T) {
			w := newWorld(t)
			require.NoError(t, w.h.Register("buy", func(*runtime.Instance, []any) (any, error) {
				if wrapped {
					return nil, fmt.Errorf("buy: %w", errNoGold)
				}
				return nil, errNoGold
			}))
			w.spawn("", "embed/buyer")
			w.spawn("", "embed/rebuyer")
			w.step(1, 0.1)
			errs := w.scriptErrors()
			require.Len(t, errs, 2)
			assert.Equal(t, "testdata/scripts/embed/buyer.lua:5: buy: not enough gold", errs[0].Message)
			assert.ErrorIs(t, errs[0], errNoGold)
			assert.Equal(t, "testdata/scripts/embed/rebuyer.lua:6: shop closed", errs[1].Message)
			assert.NotErrorIs(t, errs[1], errNoGold, "a new error is the script's own")
		})
	}
}

// TestFaultKinds: budget, memory, stale-handle and panic faults are told
// apart with errors.Is on the reported *runtime.ScriptError.
func TestFaultKinds(t *testing.T) {
	tests := []struct {
		script string
		kind   error
	}{
		{"hostile/loop", ErrBudget},
		{"hostile/growth", ErrMemory},
		{"embed/stale", runtime.ErrStaleHandle},
		{"embed/crasher", runtime.ErrPanic},
	}
	kinds := []error{ErrBudget, ErrMemory, runtime.ErrStaleHandle, runtime.ErrPanic}
	for _, tt := range tests {
		t.Run(tt.script, func(t *testing.T) {
			budget := hostileBudget
			if tt.kind == ErrMemory {
				// Long, so that the memory limit, not the clock, stops
				// it, also under -race on a busy machine.
				budget = 10 * hostileBound
			}
			w := newWorld(t, withBudget(budget, hostileMemory))
			require.NoError(t, w.h.Register("crash", func(*runtime.Instance, []any) (any, error) {
				var m map[string]int
				//lint:ignore SA5000 the registered function must panic in Go
				m["x"]++
				return nil, nil
			}))
			w.spawn("", tt.script)
			w.spawn("", "helper/neighbour")
			w.step(2, 0.1)
			errs := w.scriptErrors()
			require.Len(t, errs, 1)
			for _, k := range kinds {
				assert.Equal(t, k == tt.kind, errors.Is(errs[0], k), "errors.Is(%v)", k)
			}
			assert.Contains(t, w.lines(), "neighbour\t2", "the neighbour runs on")
		})
	}
}

// TestRegisteredPanic: a panic in a registered function is a Lua error of
// the calling callback, reported with the Go stack; that instance alone
// is faulted.
func TestRegisteredPanic(t *testing.T) {
	w := newWorld(t)
	require.NoError(t, w.h.Register("crash", func(*runtime.Instance, []any) (any, error) {
		panic("out of stock")
	}))
	w.spawn("", "embed/crasher")
	w.spawn("", "helper/neighbour")
	w.step(2, 0.1)
	errs := w.scriptErrors()
	require.Len(t, errs, 1)
	se := errs[0]
	assert.Equal(t, "testdata/scripts/embed/crasher.lua:4: crash: panic: out of stock", se.Message)
	assert.ErrorIs(t, se, runtime.ErrPanic)
	assert.Contains(t, se.Traceback, "Go stack:")
	assert.Contains(t, se.Traceback, "luabind.TestRegisteredPanic", "the Go stack names the panicking function")
	assert.Equal(t, []string{"neighbour\t1", "neighbour\t2"}, w.lines())
	assert.False(t, w.rt.Stepping())
}

// TestReloadReportIsScriptError: a refused hot reload, reported through
// the runtime, is a *runtime.ScriptError too, with the file and line of
// the cause; errors.As still finds the *ReloadError.
func TestReloadReportIsScriptError(t *testing.T) {
	w := newWorld(t)
	w.spawn("", "helper/neighbour")
	w.h.applyChanges([]watch.Change{{Path: "helper/neighbour.lua", Source: []byte("return {\n  onUpdate = function(self, ctx)\n    print(\n  end,\n}\n")}})
	errs := w.scriptErrors()
	require.Len(t, errs, 1)
	se := errs[0]
	assert.Equal(t, "helper/neighbour", se.Script)
	assert.Equal(t, "reload", se.Callback)
	assert.Equal(t, "testdata/scripts/helper/neighbour.lua", se.File)
	assert.Equal(t, 4, se.Line)
	var re *ReloadError
	assert.True(t, errors.As(w.errs[0], &re))
	var le *LoadError
	assert.True(t, errors.As(se, &le), "the cause is the compile error")
}

// TestGoPanicFromLua: a panic in the embedder's Go code that a script's
// call reached (a registered function, a Go observer of an event it
// emitted, the blackboard's OnSet hook) is the calling callback's Go
// panic: no pcall, xpcall or coroutine.resume catches it or runs a
// handler on it, and the report wraps the *runtime.PanicError with its
// value and the Go stack, at the script's line. The neighbour runs on.
func TestGoPanicFromLua(t *testing.T) {
	tests := []struct {
		script, message string
	}{
		{"embed/panic_pcall", "testdata/scripts/embed/panic_pcall.lua:6: crash: panic: boom"},
		{"embed/panic_emit", "testdata/scripts/embed/panic_emit.lua:5: ctx.emit: panic: boom"},
		{"embed/panic_xpcall", "testdata/scripts/embed/panic_xpcall.lua:5: ctx.emit: panic: boom"},
		{"embed/panic_coroutine", "testdata/scripts/embed/panic_coroutine.lua:5: crash: panic: boom"},
		{"embed/panic_blackboard", "testdata/scripts/embed/panic_blackboard.lua:5: ctx.blackboard: panic: boom"},
		{"embed/panic_handler", "testdata/scripts/embed/panic_handler.lua:7: crash: panic: boom"},
	}
	for _, tt := range tests {
		t.Run(tt.script, func(t *testing.T) {
			w := newWorld(t)
			require.NoError(t, w.h.Register("crash", func(*runtime.Instance, []any) (any, error) { panic("boom") }))
			w.rt.Events().Observe("boom", func(*runtime.Event) any { panic("boom") }, runtime.ObserveOptions{})
			w.rt.Blackboard().OnSet(func(string, any) { panic("boom") })
			w.spawn("", tt.script)
			w.spawn("", "helper/neighbour")
			w.step(2, 0.1)
			errs := w.scriptErrors()
			require.Len(t, errs, 1, "one Go panic, reported once")
			se := errs[0]
			assert.Equal(t, tt.message, se.Message)
			assert.Equal(t, "onUpdate", se.Callback)
			var pe *runtime.PanicError
			require.ErrorAs(t, se, &pe)
			assert.Equal(t, "boom", pe.Value)
			assert.Contains(t, pe.Stack, "luabind.TestGoPanicFromLua", "the Go stack names the panicking function")
			assert.Contains(t, se.Traceback, "Go stack:")
			for _, l := range w.lines() {
				assert.NotContains(t, l, "swallowed", "the script did not catch it")
				assert.NotContains(t, l, "handler ran", "no handler ran on it")
			}
			assert.Contains(t, w.lines(), "neighbour\t2", "the neighbour runs on")
		})
	}
}
