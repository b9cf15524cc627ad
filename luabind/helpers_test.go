package luabind

import (
	"bytes"
	"cmp"
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	lua "github.com/yuin/gopher-lua"

	"github.com/luahost/luahost/runtime"
)

// scriptDir is the script directory of most tests: test scripts by area
// (api/, sandbox/, errors/, hostile/, scene/), the helper scripts they
// spawn (helper/), and modules (lib/).
const scriptDir = "testdata/scripts"

// world is a runtime and a Lua host for one test, with everything they
// write captured: what scripts print, the host log, and every error the
// runtime reports.
type world struct {
	t    testing.TB
	rt   *runtime.Runtime
	h    *Host
	out  bytes.Buffer
	log  bytes.Buffer
	errs []error
}

// newWorld returns a world on scriptDir with seed 1 and the default
// budget; configure may change either options before they are used. The
// host is closed when the test ends.
func newWorld(t testing.TB, configure ...func(*runtime.Options, *Options)) *world {
	t.Helper()
	w := &world{t: t}
	ro := runtime.Options{Seed: 1, OnError: func(err error) { w.errs = append(w.errs, err) }}
	ho := Options{Dir: scriptDir, Stdout: &w.out, Log: &w.log}
	for _, c := range configure {
		c(&ro, &ho)
	}
	w.rt = runtime.New(ro)
	h, err := New(w.rt, ho)
	require.NoError(t, err)
	w.h = h
	t.Cleanup(func() { _ = h.Close() })
	return w
}

// withBudget sets the callback budget (and, when mem is non-zero, the
// memory limit).
func withBudget(d time.Duration, mem int64) func(*runtime.Options, *Options) {
	return func(_ *runtime.Options, o *Options) {
		o.Budget = d
		if mem != 0 {
			o.MemoryLimit = mem
		}
	}
}

// withSeed sets the runtime's seed.
func withSeed(seed int64) func(*runtime.Options, *Options) {
	return func(o *runtime.Options, _ *Options) { o.Seed = seed }
}

// spawn makes an Active entity called name (unnamed when name is "") and
// attaches scripts to it, in order, without props.
func (w *world) spawn(name string, scripts ...string) runtime.Handle {
	w.t.Helper()
	e := w.rt.Spawn()
	if name != "" {
		require.NoError(w.t, w.rt.SetName(e, name))
	}
	for _, s := range scripts {
		_, err := w.h.Attach(e, s, nil)
		require.NoError(w.t, err)
	}
	require.NoError(w.t, w.rt.Activate(e))
	return e
}

// attach attaches one script with props to e.
func (w *world) attach(e runtime.Handle, script string, props map[string]any) *runtime.Instance {
	w.t.Helper()
	inst, err := w.h.Attach(e, script, props)
	require.NoError(w.t, err)
	return inst
}

// step runs n frames of dt.
func (w *world) step(n int, dt float64) {
	w.t.Helper()
	for range n {
		require.NoError(w.t, w.rt.Step(dt))
	}
}

// close closes the host (and so the runtime) now.
func (w *world) close() {
	w.t.Helper()
	require.NoError(w.t, w.h.Close())
}

// scriptErrors returns the reported errors, each as a *runtime.ScriptError;
// an error of another type fails the test.
func (w *world) scriptErrors() []*runtime.ScriptError {
	w.t.Helper()
	out := make([]*runtime.ScriptError, 0, len(w.errs))
	for _, err := range w.errs {
		var se *runtime.ScriptError
		require.True(w.t, errors.As(err, &se), "reported error %T is not a *runtime.ScriptError: %v", err, err)
		out = append(out, se)
	}
	return out
}

// requireNoErrors fails the test when any error was reported.
func (w *world) requireNoErrors() {
	w.t.Helper()
	if len(w.errs) == 0 {
		return
	}
	var b strings.Builder
	for _, err := range w.errs {
		fmt.Fprintf(&b, "\n%v", err)
	}
	w.t.Fatalf("%d script errors reported:%s", len(w.errs), b.String())
}

// lines returns what scripts printed so far, one element per line.
func (w *world) lines() []string {
	s := strings.TrimSuffix(w.out.String(), "\n")
	if s == "" {
		return nil
	}
	return strings.Split(s, "\n")
}

// takeLines returns the printed lines and forgets them.
func (w *world) takeLines() []string {
	l := w.lines()
	w.out.Reset()
	return l
}

// sortPlain returns a copy of plain data whose tables list their fields
// sorted by key (numbers first, then strings), so that tables built in
// different orders render alike.
func sortPlain(v any) any {
	t, ok := v.(*runtime.Table)
	if !ok {
		return v
	}
	out := &runtime.Table{Fields: make([]runtime.Field, len(t.Fields))}
	for i, f := range t.Fields {
		out.Fields[i] = runtime.Field{Key: f.Key, Value: sortPlain(f.Value)}
	}
	slices.SortFunc(out.Fields, func(a, b runtime.Field) int {
		an, aNum := a.Key.(float64)
		bn, bNum := b.Key.(float64)
		switch {
		case aNum && bNum:
			return cmp.Compare(an, bn)
		case aNum:
			return -1
		case bNum:
			return 1
		}
		return strings.Compare(fmt.Sprint(a.Key), fmt.Sprint(b.Key))
	})
	return out
}

// toPlain copies a Lua value out as plain data, as state.toPlain does,
// outside any callback.
func toPlain(v lua.LValue, path string) (any, error) {
	c := copier{}
	return c.toPlain(v, path, 0, nil)
}
