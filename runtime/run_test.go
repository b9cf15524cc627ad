package runtime

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// runScript is a testScript that updates runs: each UpdateRun logs "run
// N" (N its instances) after the updates it made, and runs the test's
// hook in place of Update when one is set.
type runScript struct {
	testScript
	run func(r *Run, dt float64)
}

func (s *runScript) UpdateRun(r *Run, dt float64) {
	if s.run != nil {
		s.run(r, dt)
		return
	}
	n := 0
	for inst := r.Next(); inst != nil; inst = r.Next() {
		n++
		if err := s.Update(inst, dt); err != nil {
			r.Fail(err)
		}
	}
	s.log.add("run %d", n)
}

var _ RunUpdater = (*runScript)(nil)

// TestRuns: a RunUpdater gets the instances that follow one another in
// the schedule and share it, in schedule order, each when it is due:
// what the callbacks before it did (a kill, a detach, a fault) counts, and
// a failure reported through Fail faults that instance alone.
func TestRuns(t *testing.T) {
	rt, el := newTestRuntime(t, Options{})
	log := &recorder{}
	a := &runScript{testScript: testScript{name: "a", log: log}}
	b := &testScript{name: "b", log: log}
	names := []string{"a1", "a2", "a3", "b1", "a4", "a5", "a6"}
	insts := map[string]*Instance{}
	ents := map[string]Handle{}
	for _, name := range names {
		var s Script = a
		if name[0] == 'b' {
			s = b
		}
		ents[name] = spawnActive(t, rt, name)
		insts[name] = attach(t, rt, ents[name], s, name)
	}
	log.take()

	step(t, rt, 0.1)
	assert.Equal(t, []string{"update a1", "update a2", "update a3", "run 3", "update b1", "update a4", "update a5", "update a6", "run 3"}, log.take())

	a.update = func(inst *Instance, _ float64) error {
		switch inst.Data {
		case "a1":
			_, err := rt.Kill(ents["a2"])
			require.NoError(t, err)
		case "a4":
			require.True(t, rt.Detach(insts["a5"]))
		case "a3":
			return errors.New("a3 failed")
		}
		return nil
	}
	step(t, rt, 0.1)
	assert.Equal(t, []string{"update a1", "update a3", "run 2", "update b1", "update a4", "update a6", "run 2", "destroy a5", "destroy a2"}, log.take())
	errs := el.scriptErrors(t)
	require.Len(t, errs, 1)
	assert.Equal(t, "a3 failed", errs[0].Message)
	assert.Equal(t, "onUpdate", errs[0].Callback)
	assert.True(t, insts["a3"].Faulted())
	assert.False(t, insts["a1"].Faulted())

	a.update = nil
	step(t, rt, 0.1)
	assert.Equal(t, []string{"update a1", "run 1", "update b1", "update a4", "update a6", "run 2"}, log.take())
}

// TestRunPanics: a panic that leaves UpdateRun faults the instance Next
// gave last, as one that leaves Update does, and the frame goes on with
// the instance after it.
func TestRunPanics(t *testing.T) {
	rt, el := newTestRuntime(t, Options{})
	log := &recorder{}
	a := &runScript{testScript: testScript{name: "a", log: log}}
	a.run = func(r *Run, dt float64) {
		for inst := r.Next(); inst != nil; inst = r.Next() {
			require.NoError(t, a.Update(inst, dt))
			if inst.Data == "a2" {
				panic("boom")
			}
		}
	}
	insts := map[string]*Instance{}
	for _, name := range []string{"a1", "a2", "a3"} {
		insts[name] = attach(t, rt, spawnActive(t, rt, name), a, name)
	}
	log.take()

	step(t, rt, 0.1)
	assert.Equal(t, []string{"update a1", "update a2", "update a3"}, log.take())
	assert.True(t, insts["a2"].Faulted())
	assert.False(t, insts["a1"].Faulted() || insts["a3"].Faulted())
	errs := el.scriptErrors(t)
	require.Len(t, errs, 1)
	assert.Equal(t, "onUpdate", errs[0].Callback)
	assert.ErrorIs(t, errs[0], ErrPanic)

	step(t, rt, 0.1)
	assert.Equal(t, []string{"update a1", "update a3"}, log.take(), "the faulted instance is passed over")
}

// TestRunInterrupted: once the frame's context is done, the instances a
// run passes are skipped, and counted as skipped, as the schedule's are.
func TestRunInterrupted(t *testing.T) {
	rt, _ := newTestRuntime(t, Options{})
	log := &recorder{}
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	a := &runScript{testScript: testScript{name: "a", log: log}}
	a.update = func(inst *Instance, _ float64) error {
		if inst.Data == "a2" {
			cancel()
			for !rt.interrupted() {
				time.Sleep(time.Millisecond)
			}
		}
		return nil
	}
	for _, name := range []string{"a1", "a2", "a3", "a4"} {
		attach(t, rt, spawnActive(t, rt, name), a, name)
	}
	log.take()

	err := rt.StepContext(ctx, 0.1)
	var fe *FrameError
	require.ErrorAs(t, err, &fe)
	assert.Equal(t, 2, fe.Updated)
	assert.Equal(t, 2, fe.Skipped)
	assert.True(t, strings.HasPrefix(err.Error(), "frame 1 cut short: 2 instances updated, 2 skipped"), err.Error())
	assert.Equal(t, []string{"update a1", "update a2", "run 2"}, log.take())
}
