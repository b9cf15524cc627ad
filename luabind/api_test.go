package luabind

import (
	"bytes"
	"errors"
	"fmt"
	"runtime/metrics"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/luahost/luahost/runtime"
)

// writes records every Write call, to see when output is flushed.
type writes struct {
	bytes.Buffer
	calls int
}

func (w *writes) Write(p []byte) (int, error) {
	w.calls++
	return w.Buffer.Write(p)
}

// TestPrint: print writes one line per call, its arguments tostring'd and
// tab-separated, to Options.Stdout, flushed at the end of every Step (and
// by Close); ctx.log writes to Options.Log with the script's name and the
// entity.
func TestPrint(t *testing.T) {
	out := &writes{}
	w := newWorld(t, func(_ *runtime.Options, o *Options) { o.Stdout = out })
	w.spawn("", "helper/printer")
	w.spawn("", "helper/logger")

	w.step(1, 0.5)
	assert.Equal(t, "created\tentity(1:1)\nframe\t1\tnil\ttrue\t1.5\n\n", out.String(), "flushed at the end of the Step")
	out.Reset()
	w.step(1, 0.5)
	assert.Equal(t, "frame\t2\tnil\ttrue\t1.5\n\n", out.String())
	assert.Equal(t, 2, out.calls, "one write per frame, not per print")
	assert.Equal(t, "Logger entity(2:1): ready\ttrue\nprinter entity(1:1): hello\t1\tnil\nprinter entity(1:1): hello\t2\tnil\n", w.log.String())
	w.requireNoErrors()

	// What is printed outside a frame is flushed by the next Step or Close.
	out.Reset()
	w.spawn("", "helper/printer")
	w.close()
	assert.Equal(t, "created\tentity(3:1)\n", out.String())
}

// TestPrintFails: a print whose argument cannot be converted (its
// __tostring fails) raises an error and writes nothing, so every line is
// still one print.
func TestPrintFails(t *testing.T) {
	w := newWorld(t)
	w.spawn("", "helper/badprint")
	w.close()
	assert.Equal(t, "caught\tfalse\nnext\n", w.out.String())
}

// TestClosed: after Close the host refuses work instead of running
// scripts without a watchdog (or touching closed states).
func TestClosed(t *testing.T) {
	w := newWorld(t)
	w.spawn("", "spinner")
	w.close()
	_, err := w.h.Load("helper/probe")
	assert.ErrorIs(t, err, runtime.ErrClosed, "Load")
	assert.ErrorIs(t, w.h.Reload("spinner", []byte("return {}")), runtime.ErrClosed, "Reload")
	assert.ErrorIs(t, w.h.Reload("helper/new", []byte("return {}")), runtime.ErrClosed, "Reload of a new script")
	assert.ErrorIs(t, w.h.Check("helper/probe"), runtime.ErrClosed, "Check")
	assert.ErrorIs(t, w.h.Register("late", func(*runtime.Instance, []any) (any, error) { return nil, nil }), runtime.ErrClosed, "Register")
	_, err = w.h.Attach(w.rt.Spawn(), "spinner", nil)
	assert.Error(t, err, "Attach")
	assert.NoError(t, w.h.Close(), "Close twice")
	assert.ErrorIs(t, w.rt.Step(0.1), runtime.ErrClosed)
}

// TestRegister: a registered Go function gets the calling instance (nil in
// chunk code) and its arguments as plain data; its result comes back as
// Lua data; its error, or a result that is not plain data, is a Lua error.
// Functions registered after a script loaded reach it too.
func TestRegister(t *testing.T) {
	w := newWorld(t)
	var calls []string
	require.NoError(t, w.h.Register("pay", func(inst *runtime.Instance, args []any) (any, error) {
		who := "<nil>"
		if inst != nil {
			who = inst.String()
		}
		p, err := runtime.Plain(args)
		if err != nil {
			return nil, err
		}
		calls = append(calls, who+" "+runtime.FormatPlain(p))
		return map[string]any{"paid": args[0], "list": []any{1, 2}}, nil
	}))
	require.NoError(t, w.h.Register("refuse", func(*runtime.Instance, []any) (any, error) {
		return nil, errors.New("no gold")
	}))
	require.NoError(t, w.h.Register("badresult", func(*runtime.Instance, []any) (any, error) {
		return func() {}, nil
	}))
	w.spawn("", "helper/payer")
	require.NoError(t, w.h.Register("late", func(_ *runtime.Instance, args []any) (any, error) {
		return fmt.Sprint("late ", args[0]), nil
	}))
	w.step(1, 0.1)
	w.requireNoErrors()

	assert.Equal(t, []string{
		`<nil> {"chunk"}`,
		`helper/payer@entity(1:1) {5, "x", {a={1}}, entity(1:1)}`,
	}, calls)
	bb := w.rt.Blackboard()
	paid, _ := bb.Get("paid")
	assert.Equal(t, `{1, 2}`, runtime.FormatPlain(paid.(*runtime.Table).Get("list")))
	assert.Equal(t, 5.0, paid.(*runtime.Table).Get("paid"))
	refused, _ := bb.Get("refused")
	assert.Equal(t, "testdata/scripts/helper/payer.lua:8: refuse: no gold", refused, "a Go error becomes a Lua error")
	bad, _ := bb.Get("badresult")
	assert.Contains(t, bad, "badresult: not plain data: result: cannot store a value of type func()")
	late, _ := bb.Get("late")
	assert.Equal(t, "late 1", late)

	for _, name := range []string{"", "a b", "a.b", "1x", "a-b", "../x", "end", "nil"} {
		assert.Error(t, w.h.Register(name, nil), "Register(%q)", name)
	}
}

// goScript is a Go-native script: it traces its updates into the same
// list as the Lua tracers.
type goScript struct {
	name  string
	prio  int
	trace *[]string
}

func (s *goScript) Name() string  { return s.name }
func (s *goScript) Priority() int { return s.prio }
func (s *goScript) Update(inst *runtime.Instance, _ float64) error {
	*s.trace = append(*s.trace, inst.Data.(string))
	return nil
}

// TestMixedSchedule: Lua and Go-native scripts share one schedule,
// ordered by priority, then attach order across all entities.
func TestMixedSchedule(t *testing.T) {
	w := newWorld(t)
	var trace []string
	require.NoError(t, w.h.Register("trace", func(_ *runtime.Instance, args []any) (any, error) {
		trace = append(trace, args[0].(string))
		return nil, nil
	}))
	goAt := func(prio int) *goScript { return &goScript{name: fmt.Sprint("go", prio), prio: prio, trace: &trace} }
	lua := func(e runtime.Handle, script, tag string) { w.attach(e, script, map[string]any{"tag": tag}) }
	native := func(e runtime.Handle, prio int, tag string) {
		_, err := w.rt.Attach(e, goAt(prio), tag)
		require.NoError(t, err)
	}

	e1, e2 := w.rt.Spawn(), w.rt.Spawn()
	native(e1, 0, "g1")
	lua(e1, "helper/tracer", "l1")
	lua(e2, "helper/tracer_late", "l2")
	native(e2, 10, "g2")
	native(e2, -10, "g3")
	lua(e2, "helper/tracer_early", "l3")
	lua(e1, "helper/tracer", "l4")
	require.NoError(t, w.rt.Activate(e1))
	require.NoError(t, w.rt.Activate(e2))

	w.step(2, 0.1)
	want := []string{"g3", "l3", "g1", "l1", "l4", "l2", "g2"}
	assert.Equal(t, append(want, want...), trace)
	w.requireNoErrors()
}

// TestRandomSeed: math.random is reproducible for a runtime seed and
// differs for another seed.
func TestRandomSeed(t *testing.T) {
	draw := func(seed int64) string {
		w := newWorld(t, withSeed(seed))
		w.spawn("", "helper/dice")
		w.close()
		w.requireNoErrors()
		return w.out.String()
	}
	a, b, c := draw(1), draw(1), draw(2)
	assert.Equal(t, a, b, "the same seed draws the same numbers")
	assert.NotEqual(t, a, c, "another seed draws others")
	assert.Len(t, strings.Fields(a), 4)
}

// TestCollectGarbageDoesNothing: collectgarbage("collect") from a script
// does not run Go's collector (it would stop the whole process).
func TestCollectGarbageDoesNothing(t *testing.T) {
	w := newWorld(t)
	w.spawn("", "helper/gc")
	sample := []metrics.Sample{{Name: "/gc/cycles/forced:gc-cycles"}}
	metrics.Read(sample)
	before := sample[0].Value.Uint64()
	w.step(3, 0.1)
	metrics.Read(sample)
	assert.Equal(t, before, sample[0].Value.Uint64(), "no forced collection")
	w.requireNoErrors()
}

// TestBlackboardGo: Go and Lua share the blackboard as plain data; entity
// handles cross as entities.
func TestBlackboardGo(t *testing.T) {
	w := newWorld(t)
	e := w.rt.Spawn()
	require.NoError(t, w.rt.Blackboard().Set("preset", map[string]any{"level": 3, "names": []any{"a", "b"}, "who": e}))
	w.attach(e, "helper/bbgo", nil)
	w.requireNoErrors()
	v, ok := w.rt.Blackboard().Get("fromLua")
	require.True(t, ok)
	assert.Equal(t, `{[2.5]=true, list={"a", "b"}, n=1, who=entity(1:1)}`, formatSorted(v))
}

// formatSorted renders plain data with sorted table fields.
func formatSorted(v any) string { return runtime.FormatPlain(sortPlain(v)) }

// TestEventsGo: Lua handlers and Go observers share one observable per
// event: masks, first, stop and ev.last work across them, data crosses as
// plain data, and e:send reaches only that entity's instances.
func TestEventsGo(t *testing.T) {
	w := newWorld(t)
	var seen []string
	events := w.rt.Events()
	events.Observe("hit", func(ev *runtime.Event) any {
		seen = append(seen, "first "+runtime.FormatPlain(ev.Last))
		return map[string]any{"n": 10}
	}, runtime.ObserveOptions{First: true})
	w.spawn("target", "helper/hit") // subscribed after the first observer
	events.Observe("hit", func(ev *runtime.Event) any {
		seen = append(seen, fmt.Sprintf("mask2 %d %s", ev.Mask, formatSorted(ev.Last)))
		if d, ok := ev.Data.(*runtime.Table); ok && d.Get("stop") == "go" {
			ev.Stop()
		}
		return nil
	}, runtime.ObserveOptions{Mask: 2})
	w.spawn("", "helper/emitter")
	emit := func(list ...map[string]any) string {
		items := make([]any, len(list))
		for i, m := range list {
			items[i] = m
		}
		require.NoError(t, w.rt.Blackboard().Set("emit", items))
		w.step(1, 0.1)
		got, _ := w.rt.Blackboard().Get("emitted")
		return runtime.FormatPlain(got)
	}

	assert.Equal(t, "{true}", emit(map[string]any{"name": "hit", "data": map[string]any{"n": 1}, "mask": 1}))
	assert.Equal(t, []string{"first {n=1}"}, seen, "mask 1 does not reach the mask-2 observer")
	hit, _ := w.rt.Blackboard().Get("hit")
	assert.Equal(t, "{data={n=1}, last={n=10}, mask=1}", formatSorted(hit), "the Go result is the Lua handler's ev.last")

	seen = nil
	assert.Equal(t, "{false}", emit(map[string]any{"name": "hit", "data": map[string]any{"n": 1, "stop": "go"}, "mask": 3}))
	assert.Equal(t, []string{"first {n=1, stop=\"go\"}", "mask2 3 {n=2}"}, seen, "the Lua result is the next observer's ev.last")

	seen = nil
	assert.Equal(t, "{false}", emit(map[string]any{"name": "hit", "data": map[string]any{"stop": "lua"}}))
	assert.Equal(t, []string{`first {stop="lua"}`}, seen, "a Lua handler stopped the dispatch")

	seen = nil
	assert.Equal(t, "{true}", emit(map[string]any{"name": "hit", "to": "target", "data": map[string]any{"n": 5}}))
	assert.Empty(t, seen, "e:send does not reach Go observers")
	hit, _ = w.rt.Blackboard().Get("hit")
	assert.Equal(t, "{data={n=5}, last={n=5}, mask=-1}", formatSorted(hit))

	// A Go notification reaches the Lua handler with the data as a table.
	ok, err := events.Notify("hit", map[string]any{"n": 7, "list": []any{"x"}}, 4)
	require.NoError(t, err)
	assert.True(t, ok)
	hit, _ = w.rt.Blackboard().Get("hit")
	assert.Equal(t, `{data={list={"x"}, n=7}, last={n=10}, mask=4}`, formatSorted(hit))
	w.requireNoErrors()
}

// TestEventDepth: a handler that emits its own event endlessly stops at
// the runtime's depth limit with one error, in the innermost handler.
func TestEventDepth(t *testing.T) {
	w := newWorld(t)
	w.spawn("", "helper/echoer")
	ok, err := w.rt.Events().Notify("echo", 1, -1)
	require.NoError(t, err)
	assert.True(t, ok)
	errs := w.scriptErrors()
	require.Len(t, errs, 1)
	// The outermost handler of the chain is faulted, at its own emit.
	assert.Equal(t, "testdata/scripts/helper/echoer.lua:6: exceeded its event nesting limit in events.echo", errs[0].Message)
	assert.ErrorIs(t, errs[0], runtime.ErrEventDepth)
	assert.Equal(t, "events.echo", errs[0].Callback)
	depth, _ := w.rt.Blackboard().Get("depth")
	assert.Equal(t, float64(runtime.DefaultMaxEventDepth), depth)
}
