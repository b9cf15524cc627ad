package runtime

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestHookPanics: a panic in any Go hook the embedder gives the runtime
// and that runs inside Step — BeforeStep, FrameStart, AfterStep, a Go
// observer notified from FrameStart, OnError, OnReport — never wedges it:
// it is reported with its Go stack (OnError's own is returned from Step,
// matching ErrPanic), the frame ends, Stepping is false, the next Step
// works and Close runs every onDestroy.
func TestHookPanics(t *testing.T) {
	boom := func() { panic("boom") }
	tests := []struct {
		name string
		// install makes the hook panic in the first frame only.
		install func(rt *Runtime, once func() bool)
		// reported is the Callback of the reported error; "" when Step
		// returns the panic instead.
		reported string
	}{
		{"BeforeStep", func(rt *Runtime, once func() bool) {
			rt.BeforeStep(func() {
				if once() {
					boom()
				}
			})
		}, "BeforeStep"},
		{"FrameStart", func(rt *Runtime, once func() bool) {
			rt.FrameStart(func() {
				if once() {
					boom()
				}
			})
		}, "FrameStart"},
		{"AfterStep", func(rt *Runtime, once func() bool) {
			rt.AfterStep(func() {
				if once() {
					boom()
				}
			})
		}, "AfterStep"},
		{"observer", func(rt *Runtime, once func() bool) {
			rt.Events().Observe("cast", func(*Event) any {
				if once() {
					boom()
				}
				return nil
			}, ObserveOptions{})
			rt.FrameStart(func() {
				_, err := rt.Events().Notify("cast", nil, -1)
				if err != nil {
					panic(err)
				}
			})
		}, "FrameStart"},
		{"OnReport", func(rt *Runtime, once func() bool) {
			rt.OnReport(func(error) {
				if once() {
					boom()
				}
			})
			rt.FrameStart(func() { rt.Report(errors.New("something to report")) })
		}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rt, el := newTestRuntime(t, Options{})
			log := &recorder{}
			e := spawnActive(t, rt, "e")
			attach(t, rt, e, &testScript{name: "s", log: log}, nil)
			log.take()
			first := true
			tt.install(rt, func() bool {
				was := first
				first = false
				return was
			})

			err := rt.Step(0.1)
			assert.False(t, rt.Stepping())
			if tt.reported == "" {
				require.Error(t, err)
				assert.ErrorIs(t, err, ErrPanic)
				var pe *PanicError
				require.ErrorAs(t, err, &pe)
				assert.Contains(t, pe.Stack, "control_test.go", "the Go stack of the panic")
			} else {
				require.NoError(t, err)
				errs := el.scriptErrors(t)
				require.Len(t, errs, 1)
				assert.Equal(t, tt.reported, errs[0].Callback)
				assert.Equal(t, tt.reported+": panic: boom", errs[0].Message)
				assert.ErrorIs(t, errs[0], ErrPanic)
				assert.Contains(t, errs[0].Traceback, "control_test.go", "the Go stack of the panic")
			}
			assert.Equal(t, []string{"update s"}, log.take(), "the frame's update ran")

			step(t, rt, 0.1)
			assert.Equal(t, []string{"update s"}, log.take())
			require.NoError(t, rt.Close())
			assert.Equal(t, []string{"destroy s"}, log.take())
		})
	}
}

// TestOnErrorPanics: OnError that panics is recovered; Step returns the
// panic once the frame ended, and the runtime goes on.
func TestOnErrorPanics(t *testing.T) {
	calls := 0
	rt, _ := newTestRuntime(t, Options{OnError: func(error) {
		calls++
		panic("boom in OnError")
	}})
	log := &recorder{}
	bad := spawnActive(t, rt, "bad")
	attach(t, rt, bad, &testScript{name: "bad", log: log, update: func(*Instance, float64) error { return errors.New("broken") }}, nil)
	good := spawnActive(t, rt, "good")
	attach(t, rt, good, &testScript{name: "good", log: log}, nil)
	log.take()

	err := rt.Step(0.1)
	assert.ErrorIs(t, err, ErrPanic)
	assert.Contains(t, err.Error(), "boom in OnError")
	assert.False(t, rt.Stepping())
	assert.Equal(t, []string{"update bad", "update good"}, log.take(), "the frame ran to its end")
	assert.Equal(t, 1, calls)

	step(t, rt, 0.1)
	assert.Equal(t, []string{"update good"}, log.take(), "the faulted instance stays out")
	require.NoError(t, rt.Close())
	assert.Equal(t, []string{"destroy bad", "destroy good"}, log.take())
}

// TestStepContext: cancelling a frame's context stops the running
// callback (told through OnInterrupt), runs no further update, ends the
// frame (the flush runs: a kill from before the cut is settled), counts
// an overrun, and returns an error that says how far the frame ran and
// matches the context's error. The stopped instance is not faulted.
func TestStepContext(t *testing.T) {
	rt, el := newTestRuntime(t, Options{})
	log := &recorder{}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()

	var mu sync.Mutex
	var told []bool
	rt.OnInterrupt(func(stop bool) {
		mu.Lock()
		told = append(told, stop)
		mu.Unlock()
	})
	victim := spawnActive(t, rt, "victim")
	attach(t, rt, victim, &testScript{name: "victim", log: log}, nil)
	slow := spawnActive(t, rt, "slow")
	slowInst := attach(t, rt, slow, &testScript{name: "slow", log: log, update: func(inst *Instance, _ float64) error {
		if inst.Runtime().Frame() != 1 {
			return nil
		}
		_, err := inst.Runtime().Kill(victim)
		require.NoError(t, err)
		cancel()
		// A host's callback, told to stop, returns ErrInterrupted.
		for !inst.Runtime().interrupted() {
			time.Sleep(time.Millisecond)
		}
		return ErrInterrupted
	}}, nil)
	after := spawnActive(t, rt, "after")
	attach(t, rt, after, &testScript{name: "after", log: log}, nil)
	log.take()

	err := rt.StepContext(ctx, 0.1)
	require.Error(t, err)
	assert.ErrorIs(t, err, context.Canceled)
	var fe *FrameError
	require.ErrorAs(t, err, &fe)
	assert.Equal(t, uint64(1), fe.Frame)
	assert.Equal(t, 2, fe.Updated)
	assert.Equal(t, 1, fe.Skipped)
	assert.Same(t, slowInst, fe.Stopped)
	assert.True(t, strings.HasPrefix(err.Error(), "frame 1 cut short: 2 instances updated, 1 skipped, slow stopped in "), err.Error())
	assert.Equal(t, []string{"update victim", "update slow", "destroy victim"}, log.take(), "no update after the cut; the flush ran")
	assert.False(t, rt.Stepping())
	assert.False(t, slowInst.Faulted(), "a stopped callback is not at fault")
	assert.Empty(t, el.errs)
	assert.Equal(t, uint64(1), rt.Stats().Overruns)
	mu.Lock()
	assert.Equal(t, []bool{true, false, false}, told)
	mu.Unlock()

	assert.ErrorIs(t, rt.StepContext(ctx, 0.1), context.Canceled, "a done context refuses the frame")
	assert.Equal(t, uint64(1), rt.Frame())
	assert.Empty(t, log.take())

	fresh, stop := context.WithTimeout(context.Background(), time.Minute)
	defer stop()
	require.NoError(t, rt.StepContext(fresh, 0.1))
	assert.Equal(t, []string{"update slow", "update after"}, log.take())
	require.NoError(t, rt.Close())
}
