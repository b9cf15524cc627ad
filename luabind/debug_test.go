package luabind

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/luahost/luahost/luabind/internal/budget"
	"github.com/luahost/luahost/runtime"
)

// debugged runs frames of w on a goroutine of their own, as a world
// driven by its own loop while a client debugs it, and returns a channel
// closed when they are done.
func debugged(w *world, frames int) chan struct{} {
	done := make(chan struct{})
	go func() {
		defer close(done)
		for range frames {
			if err := w.rt.Step(1.0 / 60); err != nil {
				return
			}
		}
	}()
	return done
}

func waitStop(t *testing.T, d *Debugger) Stop {
	t.Helper()
	select {
	case s := <-d.Stops():
		return s
	case <-time.After(10 * time.Second):
		require.FailNow(t, "the world did not pause")
	}
	return Stop{}
}

func variable(vars []Variable, name string) (Variable, bool) {
	for _, v := range vars {
		if v.Name == name {
			return v, true
		}
	}
	return Variable{}, false
}

// TestDebuggerBreakpoint: a breakpoint pauses the world at its line; the
// stack, the locals, the upvalues and self are shown; an expression is
// evaluated in the frame and may not assign; a step over goes to the next
// line, a step in into the function called, and continue runs on.
func TestDebuggerBreakpoint(t *testing.T) {
	w := newWorld(t, withBudget(-1, 0))
	d := w.h.Debugger()
	file := filepath.Join(scriptDir, "debug/counter.lua")
	assert.Equal(t, []int{13}, d.SetBreakpoints(file, []Breakpoint{{Line: 13}}))
	w.spawn("", "debug/counter")
	done := debugged(w, 1)

	s := waitStop(t, d)
	assert.Equal(t, Stop{Reason: "breakpoint", File: file, Line: 13}, s)
	frames, err := d.Stack()
	require.NoError(t, err)
	require.NotEmpty(t, frames)
	assert.Equal(t, Frame{Name: "onUpdate", File: file, Line: 13}, frames[0])
	scopes, err := d.Scopes(0)
	require.NoError(t, err)
	require.Len(t, scopes, 3)
	locals, err := d.Variables(scopes[0].Ref)
	require.NoError(t, err)
	before, ok := variable(locals, "before")
	require.True(t, ok, "%v", locals)
	assert.Equal(t, Variable{Name: "before", Value: "0", Type: "number"}, before)
	ups, err := d.Variables(scopes[1].Ref)
	require.NoError(t, err)
	_, ok = variable(ups, "bump")
	assert.True(t, ok, "%v", ups)
	self, err := d.Variables(scopes[2].Ref)
	require.NoError(t, err)
	name, ok := variable(self, "name")
	require.True(t, ok, "%v", self)
	assert.Equal(t, `"c"`, name.Value)

	v, err := d.Evaluate(0, "before * 10 + #self.name * 20", false)
	require.NoError(t, err)
	assert.Equal(t, "20", v.Value)
	_, err = d.Evaluate(0, "before = 5", false)
	assert.ErrorContains(t, err, "read-only")

	require.NoError(t, d.StepIn())
	s = waitStop(t, d)
	assert.Equal(t, "step", s.Reason)
	assert.Equal(t, 5, s.Line, "into bump")
	frames, err = d.Stack()
	require.NoError(t, err)
	require.Len(t, frames, 2)
	assert.Equal(t, []string{"bump", "onUpdate"}, []string{frames[0].Name, frames[1].Name})
	require.NoError(t, d.StepOut())
	s = waitStop(t, d)
	assert.Equal(t, 13, s.Line, "back in onUpdate, where the call's result is stored")
	require.NoError(t, d.Next())
	s = waitStop(t, d)
	assert.Equal(t, 14, s.Line)
	d.SetBreakpoints(file, nil)
	require.NoError(t, d.Continue())
	<-done
	assert.ErrorIs(t, d.Continue(), ErrNotPaused)
	w.requireNoErrors()
}

// TestDebuggerConditions: a breakpoint's condition and hit condition
// decide which hits pause.
func TestDebuggerConditions(t *testing.T) {
	w := newWorld(t, withBudget(-1, 0))
	d := w.h.Debugger()
	file := filepath.Join(scriptDir, "debug/counter.lua")
	d.SetBreakpoints(file, []Breakpoint{{Line: 12, Condition: "self.count >= 2"}})
	w.spawn("", "debug/counter")
	done := debugged(w, 2)
	waitStop(t, d)
	v, err := d.Evaluate(0, "self.count", false)
	require.NoError(t, err)
	assert.Equal(t, "2", v.Value, "the first frame's hit did not pause")
	require.NoError(t, d.Continue())
	<-done

	assert.True(t, hitMatches("", 1))
	assert.False(t, hitMatches("3", 2))
	assert.True(t, hitMatches("3", 3))
	assert.True(t, hitMatches(">= 3", 4))
	assert.False(t, hitMatches("== 3", 4))
	assert.True(t, hitMatches("% 2", 4))
	assert.False(t, hitMatches("% 2", 3))
	assert.True(t, hitMatches("< 2", 1))
}

// TestDebuggerBreakOnError: with break on error, a script error pauses
// at the failing line with the message, the frame still there; without
// it, the error is reported as always.
func TestDebuggerBreakOnError(t *testing.T) {
	w := newWorld(t, withBudget(-1, 0))
	d := w.h.Debugger()
	d.SetBreakOnError(true)
	w.spawn("", "debug/counter")
	w.step(2, 1.0/60)
	done := debugged(w, 1)
	s := waitStop(t, d)
	assert.Equal(t, "exception", s.Reason)
	assert.Equal(t, 15, s.Line)
	assert.Contains(t, s.Error, "too many: 6")
	v, err := d.Evaluate(0, "self.count", false)
	require.NoError(t, err)
	assert.Equal(t, "6", v.Value)
	require.NoError(t, d.Continue())
	<-done
	require.Len(t, w.errs, 1)
	assert.Contains(t, w.errs[0].Error(), "counter.lua:15: too many: 6")
}

// TestDebuggerPause: a pause asked while the world runs stops it at the
// next instruction of a script.
func TestDebuggerPause(t *testing.T) {
	w := newWorld(t, withBudget(-1, 0))
	d := w.h.Debugger()
	w.spawn("", "debug/counter")
	d.Pause()
	done := debugged(w, 1)
	s := waitStop(t, d)
	assert.Equal(t, "pause", s.Reason)
	assert.True(t, d.Paused())
	require.NoError(t, d.Continue())
	<-done
	assert.False(t, d.Paused())
}

// TestDebuggerHoldsTheBackstop: a pause longer than the wall-clock
// backstop costs the paused callback nothing, and its work is still
// counted through the debugger's context.
func TestDebuggerHoldsTheBackstop(t *testing.T) {
	w := newWorld(t, func(_ *runtime.Options, o *Options) { o.WallClock = 30 * time.Millisecond })
	d := w.h.Debugger()
	file := filepath.Join(scriptDir, "debug/counter.lua")
	d.SetBreakpoints(file, []Breakpoint{{Line: 13}})
	w.spawn("", "debug/counter")
	done := debugged(w, 1)
	waitStop(t, d)
	time.Sleep(150 * time.Millisecond)
	for _, s := range w.h.Scripts() {
		if s.st != nil && s.st.L != nil {
			assert.Same(t, w.h.budget, budget.Of(s.st.L.Context()), "the budget is reached through the debugger's context")
		}
	}
	d.SetBreakpoints(file, nil)
	require.NoError(t, d.Continue())
	<-done
	w.requireNoErrors()
}

// TestDebuggerMoves: a debugger moved to another host keeps its
// breakpoints and pauses that host's scripts, loaded before the move, and
// no longer the first host's; observers hear of the pause and the resume;
// Where says where it paused; a held debugger lets the world run on.
func TestDebuggerMoves(t *testing.T) {
	first := newWorld(t, withBudget(-1, 0))
	d := first.h.Debugger()
	file := filepath.Join(scriptDir, "debug/counter.lua")
	d.SetBreakpoints(file, []Breakpoint{{Line: 13}})
	assert.Equal(t, []Breakpoint{{File: file, Line: 13}}, d.Breakpoints())
	var heard []bool
	d.Observe(func(_ Stop, paused bool) { heard = append(heard, paused) })

	second := newWorld(t, withBudget(-1, 0))
	second.spawn("", "debug/counter")
	second.h.UseDebugger(d)
	first.spawn("", "debug/counter")
	require.NoError(t, first.rt.Step(1.0/60), "the first host is no longer watched")

	done := debugged(second, 1)
	s := waitStop(t, d)
	assert.Equal(t, Stop{Reason: "breakpoint", File: file, Line: 13}, s)
	where, err := d.Where()
	require.NoError(t, err)
	assert.Equal(t, s, where)
	require.NoError(t, d.Continue())
	<-done
	assert.Equal(t, []bool{true, false}, heard)
	_, err = d.Where()
	assert.ErrorIs(t, err, ErrNotPaused)

	d.SetBreakpoints(file, nil)
	d.Hold(true)
	d.Pause()
	require.NoError(t, second.rt.Step(1.0/60), "a held debugger does not pause")
	d.Hold(false)
	done = debugged(second, 1)
	assert.Equal(t, "pause", waitStop(t, d).Reason, "the pause asked during the hold")
	require.NoError(t, d.Continue())
	<-done

	src := second.h.Script("debug/counter").Source()
	assert.Contains(t, src, "local function bump(n)")
}

// TestDebuggerInstanceBreakpoint: a breakpoint of one entity pauses in
// that entity's callback only, and a breakpoint set once goes when it
// pauses; CallbackLine gives the first line of a callback that runs.
func TestDebuggerInstanceBreakpoint(t *testing.T) {
	w := newWorld(t, withBudget(-1, 0))
	d := w.h.Debugger()
	file := filepath.Join(scriptDir, "debug/counter.lua")
	w.spawn("", "debug/counter")
	second := w.spawn("", "debug/counter")
	line, ok := w.h.Script("debug/counter").CallbackLine("onUpdate")
	require.True(t, ok)
	assert.Equal(t, 12, line)
	_, ok = w.h.Script("debug/counter").CallbackLine("onDestroy")
	assert.False(t, ok)
	d.SetBreakpoints(file, []Breakpoint{{Line: line, Entity: second, Once: true}})
	var where []runtime.Handle
	d.Observe(func(Stop, bool) {
		if st := w.h.Script("debug/counter").st; st.cur != nil {
			where = append(where, st.cur.Entity())
		}
	})
	done := debugged(w, 2)
	assert.Equal(t, "breakpoint", waitStop(t, d).Reason)
	assert.Empty(t, d.Breakpoints(), "a breakpoint set once goes when it pauses")
	require.NoError(t, d.Continue())
	<-done
	assert.Equal(t, []runtime.Handle{second, second}, where, "paused in the second entity's callback, and once")
}

// TestDebuggerReloadWhilePaused: a script saved while the world is paused
// in the debugger is not reloaded under the paused callback: the paused
// frame finishes with the old code, and the reload applies before the
// next frame.
func TestDebuggerReloadWhilePaused(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "tick.lua")
	version := func(n string) []byte {
		src, err := os.ReadFile(filepath.Join("testdata/debugreload", "tick_"+n+".lua"))
		require.NoError(t, err)
		return src
	}
	require.NoError(t, os.WriteFile(file, version("v1"), 0o644))
	w := newWorld(t, withBudget(-1, 0), func(_ *runtime.Options, o *Options) { o.Dir = dir })
	d := w.h.Debugger()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	stop, err := w.h.Watch(ctx)
	require.NoError(t, err)
	defer stop()
	w.spawn("", "tick")
	d.SetBreakpoints(file, []Breakpoint{{Line: 5}})
	done := debugged(w, 1)
	waitStop(t, d)

	require.NoError(t, os.WriteFile(file, version("v2"), 0o644))
	select {
	case <-w.h.WatchReady():
	case <-time.After(10 * time.Second):
		t.Fatal("the watcher saw no change")
	}
	assert.Equal(t, 0, w.h.Stats().Reloads, "nothing reloads under the paused callback")
	d.SetBreakpoints(file, nil)
	require.NoError(t, d.Continue())
	<-done
	assert.Equal(t, []string{"v1"}, w.takeLines(), "the paused frame finished with the old code")
	require.NoError(t, w.rt.Step(1.0/60))
	assert.Equal(t, 1, w.h.Stats().Reloads)
	assert.Equal(t, []string{"v2"}, w.takeLines(), "the next frame runs the saved code")
}
