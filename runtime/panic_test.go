package runtime

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestPanicRecovered: a panic in any callback of a Go-native script, or in
// a Go observer that callback notifies, faults that instance only and is
// reported as a *ScriptError wrapping a *PanicError with the Go stack.
// Step always leaves the frame, the next Step runs, and Close still runs
// every onDestroy.
func TestPanicRecovered(t *testing.T) {
	boom := func() { panic("boom") }
	tests := []struct {
		name     string
		callback string
		script   func(*testScript)
		// act does what makes the callback run, after the entities exist.
		act func(t *testing.T, rt *Runtime, e Handle)
	}{
		{"update", "onUpdate", func(s *testScript) {
			s.update = func(*Instance, float64) error { boom(); return nil }
		}, func(t *testing.T, rt *Runtime, _ Handle) { step(t, rt, 0.1) }},
		{"nil dereference", "onUpdate", func(s *testScript) {
			s.update = func(*Instance, float64) error {
				var m map[string]int
				//lint:ignore SA5000 the callback must panic in Go
				m["x"] = 1
				return nil
			}
		}, func(t *testing.T, rt *Runtime, _ Handle) { step(t, rt, 0.1) }},
		{"event", "events.hit", func(s *testScript) {
			s.events = []string{"hit"}
			s.handle = func(*Instance, *Event) (any, error) { boom(); return nil, nil }
		}, func(t *testing.T, rt *Runtime, _ Handle) {
			ok, err := rt.Events().Notify("hit", nil, -1)
			require.NoError(t, err)
			assert.True(t, ok, "the dispatch went on past the panic")
		}},
		{"observer", "onUpdate", func(s *testScript) {
			s.update = func(inst *Instance, _ float64) error {
				_, err := inst.Runtime().Events().Notify("go", nil, -1)
				return err
			}
		}, func(t *testing.T, rt *Runtime, _ Handle) {
			rt.Events().Observe("go", func(*Event) any { boom(); return nil }, ObserveOptions{})
			step(t, rt, 0.1)
			assert.Zero(t, rt.events.depth, "the dispatch depth was restored")
		}},
		{"destroy", "onDestroy", func(s *testScript) {
			s.destroy = func(*Instance) error { boom(); return nil }
		}, func(t *testing.T, rt *Runtime, e Handle) {
			_, err := rt.Kill(e)
			require.NoError(t, err)
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rt, el := newTestRuntime(t, Options{})
			log := &recorder{}
			bad := &testScript{name: "bad", log: log}
			tt.script(bad)
			e := spawnActive(t, rt, "")
			attach(t, rt, e, bad, "bad")
			attach(t, rt, spawnActive(t, rt, ""), &testScript{name: "good", log: log}, "good")

			tt.act(t, rt, e)
			assert.False(t, rt.Stepping(), "the frame was left")
			errs := el.scriptErrors(t)
			require.Len(t, errs, 1)
			se := errs[0]
			assert.Equal(t, "bad", se.Script)
			assert.Equal(t, tt.callback, se.Callback)
			assert.ErrorIs(t, se, ErrPanic)
			var pe *PanicError
			require.True(t, errors.As(se, &pe))
			assert.Contains(t, se.Traceback, "runtime.TestPanicRecovered", "the Go stack names the panicking code")
			assert.NotContains(t, se.Traceback, "runtime.gopanic", "the stack starts at the panic")

			log.take()
			step(t, rt, 0.1)
			assert.Contains(t, log.take(), "update good", "the runtime runs on")
			require.NoError(t, rt.Close())
			if tt.callback != "onDestroy" {
				assert.Equal(t, []string{"destroy bad", "destroy good"}, log.take(), "Close runs every onDestroy")
			}
		})
	}
}

// TestPanicCreate: a panicking Create faults the instance like a failed
// onCreate; Attach still returns it.
func TestPanicCreate(t *testing.T) {
	rt, el := newTestRuntime(t, Options{})
	s := &testScript{name: "bad", log: &recorder{}, create: func(*Instance) error { panic(errors.New("kaput")) }}
	inst := attach(t, rt, spawnActive(t, rt, ""), s, "bad")
	assert.True(t, inst.CreateFailed())
	errs := el.scriptErrors(t)
	require.Len(t, errs, 1)
	assert.Equal(t, "onCreate", errs[0].Callback)
	assert.Equal(t, "panic: kaput", errs[0].Message)
	assert.ErrorIs(t, errs[0], ErrPanic)
}

// TestStepRefusesDT: a dt that is NaN, infinite or negative is refused
// and changes neither the time nor the frame.
func TestStepRefusesDT(t *testing.T) {
	rt, _ := newTestRuntime(t, Options{})
	step(t, rt, 0.5)
	for _, dt := range []float64{math.NaN(), math.Inf(1), math.Inf(-1), -1, -math.SmallestNonzeroFloat64} {
		err := rt.Step(dt)
		assert.ErrorIs(t, err, ErrInvalidDT, "Step(%v)", dt)
		assert.Equal(t, 0.5, rt.Time())
		assert.Equal(t, uint64(1), rt.Frame())
		assert.False(t, rt.Stepping())
	}
	step(t, rt, 0)
	assert.Equal(t, uint64(2), rt.Frame(), "a dt of 0 is a frame")
}

// TestPanicDispatchGoesOn: however many Go-native handlers of one
// dispatch panic, each one is faulted alone and the dispatch goes on
// after it, in list order, with the next handler's ev.Last nil; a stop
// after a panic still ends the dispatch.
func TestPanicDispatchGoesOn(t *testing.T) {
	tests := []struct {
		name  string
		plan  string // one letter an observer: p panics, o returns its index, s stops
		calls string // the observers called, as their indexes
		lasts string // what each called observer saw in ev.Last
		ok    bool
		fault []int
	}{
		{"none", "ooo", "012", "x01", true, nil},
		{"first", "poo", "012", "xn1", true, []int{0}},
		{"every other", "popop", "01234", "xn1n3", true, []int{0, 2, 4}},
		{"in a row", "oppo", "0123", "x0nn", true, []int{1, 2}},
		{"then a stop", "opsoo", "012", "x0n", false, []int{1}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rt, el := newTestRuntime(t, Options{})
			var calls, lasts string
			var insts []*Instance
			for i, c := range tt.plan {
				s := &testScript{name: fmt.Sprintf("s%d", i), log: &recorder{}, events: []string{"hit"}}
				s.handle = func(_ *Instance, ev *Event) (any, error) {
					calls += strconv.Itoa(i)
					switch last := ev.Last.(type) {
					case nil:
						lasts += "n"
					case float64:
						lasts += strconv.Itoa(int(last))
					default:
						lasts += "x"
					}
					switch c {
					case 'p':
						panic(fmt.Sprintf("handler %d", i))
					case 's':
						ev.Stop()
					}
					return float64(i), nil
				}
				insts = append(insts, attach(t, rt, spawnActive(t, rt, ""), s, nil))
			}
			ok, err := rt.Events().Notify("hit", "data", -1)
			require.NoError(t, err)
			assert.Equal(t, tt.ok, ok)
			assert.Equal(t, tt.calls, calls)
			assert.Equal(t, tt.lasts, lasts)
			var faulted []int
			for i, inst := range insts {
				if inst.Faulted() {
					faulted = append(faulted, i)
				}
			}
			assert.Equal(t, tt.fault, faulted)
			errs := el.scriptErrors(t)
			require.Len(t, errs, len(tt.fault))
			for i, se := range errs {
				assert.Equal(t, fmt.Sprintf("s%d", tt.fault[i]), se.Script)
				assert.Equal(t, "events.hit", se.Callback)
				assert.ErrorIs(t, se, ErrPanic)
				assert.Contains(t, se.Message, fmt.Sprintf("handler %d", tt.fault[i]))
			}
			assert.Zero(t, rt.events.depth, "the dispatch depth was restored")
		})
	}
}

// TestPanicAfterUnsubscribing: a Go-native handler that drops its own
// subscription (a reload between frames) and then panics empties its slot
// in the list at once; the dispatch still goes on after that place.
func TestPanicAfterUnsubscribing(t *testing.T) {
	rt, el := newTestRuntime(t, Options{})
	log := &recorder{}
	bad := &testScript{name: "bad", log: log, events: []string{"hit"}}
	bad.handle = func(*Instance, *Event) (any, error) {
		bad.events = nil
		require.NoError(t, rt.ScriptChanged(bad))
		panic("after unsubscribing")
	}
	attach(t, rt, spawnActive(t, rt, ""), bad, nil)
	attach(t, rt, spawnActive(t, rt, ""), &testScript{name: "good", log: log, events: []string{"hit"}}, nil)
	log.take()
	ok, err := rt.Events().Notify("hit", nil, -1)
	require.NoError(t, err)
	assert.True(t, ok)
	assert.Equal(t, []string{"event bad hit", "event good hit"}, log.take())
	require.Len(t, el.scriptErrors(t), 1)
	assert.Equal(t, "bad", el.scriptErrors(t)[0].Script)
	assert.Equal(t, 1, rt.Events().Observers("hit"))
}
