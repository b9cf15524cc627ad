package runtime

import (
	"errors"
	"fmt"
	"testing"

	"github.com/stretchr/testify/require"
)

// recorder is a log of callbacks shared by the scripts of one test, so that
// the order of calls across scripts and entities can be checked as a whole.
type recorder struct {
	lines []string
}

func (r *recorder) add(format string, args ...any) {
	r.lines = append(r.lines, fmt.Sprintf(format, args...))
}

// take returns the lines logged since the last take and empties the log.
func (r *recorder) take() []string {
	out := r.lines
	r.lines = nil
	return out
}

// label names an instance in the log: its Data when that is a string,
// otherwise its script's name.
func label(inst *Instance) string {
	if s, ok := inst.Data.(string); ok && s != "" {
		return s
	}
	return inst.Script().Name()
}

// testScript is a Go-native script with every optional callback. Each call
// is logged as "CALLBACK LABEL" ("event LABEL NAME" for events); the hooks
// let a test act from inside a callback and choose its result.
type testScript struct {
	name   string
	prio   int
	log    *recorder
	events []string

	create  func(inst *Instance) error
	update  func(inst *Instance, dt float64) error
	destroy func(inst *Instance) error
	handle  func(inst *Instance, ev *Event) (any, error)
}

func (s *testScript) Name() string         { return s.name }
func (s *testScript) Priority() int        { return s.prio }
func (s *testScript) EventNames() []string { return s.events }

func (s *testScript) Create(inst *Instance) error {
	s.log.add("create %s", label(inst))
	if s.create != nil {
		return s.create(inst)
	}
	return nil
}

func (s *testScript) Update(inst *Instance, dt float64) error {
	s.log.add("update %s", label(inst))
	if s.update != nil {
		return s.update(inst, dt)
	}
	return nil
}

func (s *testScript) Destroy(inst *Instance) error {
	s.log.add("destroy %s", label(inst))
	if s.destroy != nil {
		return s.destroy(inst)
	}
	return nil
}

func (s *testScript) HandleEvent(inst *Instance, ev *Event) (any, error) {
	s.log.add("event %s %s", label(inst), ev.Name)
	if s.handle != nil {
		return s.handle(inst, ev)
	}
	return nil, nil
}

var (
	_ Creator      = (*testScript)(nil)
	_ Updater      = (*testScript)(nil)
	_ Destroyer    = (*testScript)(nil)
	_ EventHandler = (*testScript)(nil)
)

// bareScript implements Script and none of the optional callbacks.
type bareScript struct{ name string }

func (s bareScript) Name() string  { return s.name }
func (s bareScript) Priority() int { return 0 }

// countScript only counts its updates: the cheapest possible Updater, for
// benchmarks and allocation tests.
type countScript struct{ n int }

func (s *countScript) Name() string                               { return "count" }
func (s *countScript) Priority() int                              { return 0 }
func (s *countScript) Update(*Instance, float64) error            { s.n++; return nil }
func (s *countScript) Destroy(*Instance) error                    { return nil }
func (s *countScript) Create(*Instance) error                     { return nil }
func (s *countScript) HandleEvent(*Instance, *Event) (any, error) { return nil, nil }

// errorLog collects what a runtime reports through Options.OnError.
type errorLog struct {
	errs []error
}

func (l *errorLog) onError(err error) { l.errs = append(l.errs, err) }

// scriptErrors returns the reported errors as *ScriptError, failing the
// test for any that is not one.
func (l *errorLog) scriptErrors(t *testing.T) []*ScriptError {
	t.Helper()
	out := make([]*ScriptError, 0, len(l.errs))
	for _, err := range l.errs {
		var se *ScriptError
		require.True(t, errors.As(err, &se), "reported error %v is not a *ScriptError", err)
		out = append(out, se)
	}
	return out
}

// newTestRuntime returns a runtime whose errors are collected in the
// returned log, closed when the test ends.
func newTestRuntime(t *testing.T, opts Options) (*Runtime, *errorLog) {
	t.Helper()
	el := &errorLog{}
	if opts.OnError == nil {
		opts.OnError = el.onError
	}
	rt := New(opts)
	t.Cleanup(func() { _ = rt.Close() })
	return rt, el
}

// spawnActive spawns an entity outside a frame, names it (when name is not
// empty) and activates it.
func spawnActive(t testing.TB, rt *Runtime, name string) Handle {
	t.Helper()
	h := rt.Spawn()
	require.False(t, h.IsZero())
	if name != "" {
		require.NoError(t, rt.SetName(h, name))
	}
	require.NoError(t, rt.Activate(h))
	return h
}

// attach attaches s to h with data and fails the test on error.
func attach(t testing.TB, rt *Runtime, h Handle, s Script, data any) *Instance {
	t.Helper()
	inst, err := rt.Attach(h, s, data)
	require.NoError(t, err)
	require.NotNil(t, inst)
	return inst
}

// step runs one frame and fails the test on error.
func step(t *testing.T, rt *Runtime, dt float64) {
	t.Helper()
	require.NoError(t, rt.Step(dt))
}

// physical returns the length of the observer list of name as stored,
// including observers that are marked for removal but not yet removed.
func physical(rt *Runtime, name string) int {
	ob := rt.events.byName[name]
	if ob == nil {
		return 0
	}
	return ob.order.len() + len(ob.pending)
}

// stateOf returns h's state, StateDead for a stale handle.
func stateOf(rt *Runtime, h Handle) State {
	st, _ := rt.State(h)
	return st
}
