package runtime

import (
	"bytes"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

var errBoom = errors.New("boom")

func TestUpdateErrorFaults(t *testing.T) {
	rt, el := newTestRuntime(t, Options{})
	log := &recorder{}
	h := spawnActive(t, rt, "")
	s := &testScript{name: "flaky", log: log, events: []string{"ping"}, update: func(*Instance, float64) error {
		if rt.Frame() == 2 {
			return errBoom
		}
		return nil
	}}
	inst := attach(t, rt, h, s, "flaky")
	attach(t, rt, h, &testScript{name: "steady", log: log}, "steady")
	log.take()

	for range 4 {
		step(t, rt, 1)
	}
	assert.Equal(t, []string{
		"update flaky", "update steady",
		"update flaky", "update steady", // frame 2: flaky fails
		"update steady",
		"update steady",
	}, log.take(), "a faulted instance gets no update; everything else runs on")
	assert.True(t, inst.Faulted())
	assert.False(t, inst.CreateFailed())

	errs := el.scriptErrors(t)
	require.Len(t, errs, 1, "reported once")
	se := errs[0]
	assert.Equal(t, "flaky", se.Script)
	assert.Equal(t, "onUpdate", se.Callback)
	assert.Equal(t, h, se.Entity)
	assert.Equal(t, uint64(2), se.Frame)
	assert.Equal(t, "boom", se.Message)
	assert.ErrorIs(t, se, errBoom)
	assert.Equal(t, 1, rt.Stats().Errors)

	_, err := rt.Events().Notify("ping", nil, -1)
	require.NoError(t, err)
	assert.Empty(t, log.take(), "a faulted instance gets no event")

	_, err = rt.Kill(h)
	require.NoError(t, err)
	assert.Equal(t, []string{"destroy flaky", "destroy steady"}, log.take(), "settlement is never skipped")
}

func TestCreateErrorNoCallbacks(t *testing.T) {
	rt, el := newTestRuntime(t, Options{})
	log := &recorder{}
	h := spawnActive(t, rt, "")
	s := &testScript{name: "broken", log: log, events: []string{"ping"}, create: func(*Instance) error { return errBoom }}
	inst, err := rt.Attach(h, s, "broken")
	require.NoError(t, err, "a failed onCreate is reported, not returned")
	require.NotNil(t, inst)
	assert.True(t, inst.Faulted())
	assert.True(t, inst.CreateFailed())
	assert.True(t, inst.Live(), "it stays attached")

	errs := el.scriptErrors(t)
	require.Len(t, errs, 1)
	assert.Equal(t, "onCreate", errs[0].Callback)
	assert.Equal(t, uint64(0), errs[0].Frame, "frame 0 during setup")
	assert.Equal(t, h, errs[0].Entity)

	step(t, rt, 1)
	_, err = rt.Events().Notify("ping", nil, -1)
	require.NoError(t, err)
	_, err = rt.Events().NotifyEntity(h, "ping", nil, -1)
	require.NoError(t, err)
	_, err = rt.Kill(h)
	require.NoError(t, err)
	assert.Equal(t, []string{"create broken"}, log.take(), "no update, no event, no destroy")
	assert.Len(t, el.errs, 1)
}

func TestDestroyErrorReported(t *testing.T) {
	rt, el := newTestRuntime(t, Options{})
	log := &recorder{}
	h := spawnActive(t, rt, "")
	inst := attach(t, rt, h, &testScript{name: "s", log: log, destroy: func(*Instance) error { return errBoom }}, "s")
	step(t, rt, 1)
	require.True(t, rt.Detach(inst))
	assert.False(t, inst.Live(), "destroyed all the same")
	errs := el.scriptErrors(t)
	require.Len(t, errs, 1)
	assert.Equal(t, "onDestroy", errs[0].Callback)
	assert.Equal(t, uint64(1), errs[0].Frame)
	assert.Equal(t, 1, rt.Stats().Errors)
	assert.Zero(t, rt.Stats().Instances)
}

func TestEventErrorReported(t *testing.T) {
	rt, el := newTestRuntime(t, Options{})
	log := &recorder{}
	h := spawnActive(t, rt, "")
	s := &testScript{name: "s", log: log, events: []string{"damage"}, handle: func(*Instance, *Event) (any, error) {
		return nil, errBoom
	}}
	inst := attach(t, rt, h, s, "s")
	log.take()
	for range 2 {
		_, err := rt.Events().Notify("damage", nil, -1)
		require.NoError(t, err)
	}
	step(t, rt, 1)
	assert.Equal(t, []string{"event s damage"}, log.take(), "faulted: no further events or updates")
	assert.True(t, inst.Faulted())
	errs := el.scriptErrors(t)
	require.Len(t, errs, 1)
	assert.Equal(t, "events.damage", errs[0].Callback)
	assert.Equal(t, "s", errs[0].Script)
	assert.Equal(t, h, errs[0].Entity)
}

func TestScriptErrorKeepsDetails(t *testing.T) {
	rt, el := newTestRuntime(t, Options{})
	h := spawnActive(t, rt, "")
	given := &ScriptError{
		Script:    "custom",
		File:      "scripts/x.lua",
		Line:      7,
		Message:   "scripts/x.lua:7: attempt to index a nil value",
		Traceback: "\tscripts/x.lua:7: in function 'onUpdate'\n",
		Err:       errBoom,
	}
	attach(t, rt, h, &testScript{name: "x", log: &recorder{}, update: func(*Instance, float64) error { return given }}, "x")
	step(t, rt, 1)
	errs := el.scriptErrors(t)
	require.Len(t, errs, 1)
	se := errs[0]
	assert.Equal(t, "custom", se.Script, "a name the script gave is kept")
	assert.Equal(t, "scripts/x.lua", se.File)
	assert.Equal(t, 7, se.Line)
	assert.Equal(t, "onUpdate", se.Callback)
	assert.Equal(t, h, se.Entity)
	assert.Equal(t, uint64(1), se.Frame)
	assert.Equal(t,
		"scripts/x.lua:7: attempt to index a nil value\n"+
			"\tin script custom, "+h.String()+", onUpdate, frame 1\n"+
			"\tscripts/x.lua:7: in function 'onUpdate'",
		se.Error())
	assert.ErrorIs(t, se, errBoom)
}

func TestRetry(t *testing.T) {
	t.Run("after a failed update", func(t *testing.T) {
		rt, _ := newTestRuntime(t, Options{})
		log := &recorder{}
		fail := true
		inst := attach(t, rt, spawnActive(t, rt, ""), &testScript{name: "s", log: log, update: func(*Instance, float64) error {
			if fail {
				return errBoom
			}
			return nil
		}}, "s")
		step(t, rt, 1)
		require.True(t, inst.Faulted())
		fail = false
		log.take()
		rt.Retry(inst)
		assert.False(t, inst.Faulted())
		assert.Empty(t, log.take(), "onCreate does not run again")
		step(t, rt, 1)
		assert.Equal(t, []string{"update s"}, log.take())
	})
	t.Run("after a failed create", func(t *testing.T) {
		rt, el := newTestRuntime(t, Options{})
		log := &recorder{}
		fail := true
		h := spawnActive(t, rt, "")
		inst := attach(t, rt, h, &testScript{name: "s", log: log, create: func(*Instance) error {
			if fail {
				return errBoom
			}
			return nil
		}}, "s")
		step(t, rt, 1)
		rt.Retry(inst) // fails again
		assert.True(t, inst.Faulted())
		assert.True(t, inst.CreateFailed())
		assert.Len(t, el.errs, 2)
		fail = false
		rt.Retry(inst)
		assert.False(t, inst.Faulted())
		assert.False(t, inst.CreateFailed())
		step(t, rt, 1)
		_, err := rt.Kill(h)
		require.NoError(t, err)
		assert.Equal(t, []string{"create s", "create s", "create s", "update s", "destroy s"}, log.take())
	})
	t.Run("does nothing otherwise", func(t *testing.T) {
		rt, _ := newTestRuntime(t, Options{})
		log := &recorder{}
		h := spawnActive(t, rt, "")
		healthy := attach(t, rt, h, &testScript{name: "s", log: log}, "healthy")
		broken := attach(t, rt, h, &testScript{name: "s", log: log, create: func(*Instance) error { return errBoom }}, "broken")
		require.True(t, rt.Detach(broken))
		log.take()
		rt.Retry(healthy)
		rt.Retry(broken)
		assert.Empty(t, log.take())
		assert.True(t, broken.Faulted())
	})
}

func TestReportAndWriters(t *testing.T) {
	rt, el := newTestRuntime(t, Options{})
	rt.Report(errBoom)
	assert.Equal(t, []error{errBoom}, el.errs)
	assert.Equal(t, 1, rt.Stats().Errors)

	var buf bytes.Buffer
	Writer(&buf)(errBoom)
	assert.Equal(t, "boom\n", buf.String())
	assert.NotPanics(t, func() { Discard(errBoom) })
}

// TestOnReport checks that every function registered with OnReport gets
// every reported error after Options.OnError: a callback's, with its
// script, entity and frame filled in, and one handed to Report.
func TestOnReport(t *testing.T) {
	rt, el := newTestRuntime(t, Options{})
	var first, second []error
	rt.OnReport(func(err error) {
		assert.Len(t, el.errs, len(first)+1, "OnReport ran before Options.OnError")
		first = append(first, err)
	})
	rt.OnReport(func(err error) { second = append(second, err) })
	h := spawnActive(t, rt, "e")
	attach(t, rt, h, &testScript{name: "bad", log: &recorder{}, update: func(*Instance, float64) error {
		return errors.New("broken")
	}}, nil)
	step(t, rt, 0.1)
	rt.Report(errors.New("reload refused"))

	require.Len(t, first, 2)
	assert.Equal(t, first, second)
	var se *ScriptError
	require.ErrorAs(t, first[0], &se)
	assert.Equal(t, "bad", se.Script)
	assert.Equal(t, h, se.Entity)
	assert.Equal(t, uint64(1), se.Frame)
	assert.EqualError(t, first[1], "reload refused")
	assert.Equal(t, 2, rt.Stats().Errors)
}

// TestScriptErrorNamesEntity: a report names the entity by its name as well
// as its handle; a name that could break the report's lines is quoted.
func TestScriptErrorNamesEntity(t *testing.T) {
	for _, c := range []struct{ name, want string }{
		{"", "entity(%d:%d)"},
		{"grunt 7", "grunt 7 (entity %d:%d)"},
		{"a\n\tin script forged", `"a\n\tin script forged" (entity %d:%d)`},
	} {
		t.Run(c.name, func(t *testing.T) {
			rt, el := newTestRuntime(t, Options{})
			h := spawnActive(t, rt, c.name)
			attach(t, rt, h, &testScript{name: "x", log: &recorder{}, update: func(*Instance, float64) error { return errBoom }}, "x")
			step(t, rt, 1)
			errs := el.scriptErrors(t)
			require.Len(t, errs, 1)
			assert.Equal(t, c.name, errs[0].EntityName)
			label := fmt.Sprintf(c.want, h.Index, h.Gen)
			assert.Equal(t, label, errs[0].EntityLabel())
			assert.Contains(t, errs[0].Error(), "\tin script x, "+label+", onUpdate, frame 1")
		})
	}
}

// TestSafeText: text a script chose cannot pass for host lines: control
// characters but tab and line break are escaped, lines after the first
// are indented, and invalid UTF-8 is kept.
func TestSafeText(t *testing.T) {
	tests := []struct{ name, in, indent, want string }{
		{"plain", "boom\tbang", "\t", "boom\tbang"},
		{"continuation", "boom\nscripts/other.lua:1: fake", "\t", "boom\n\tscripts/other.lua:1: fake"},
		{"terminal escapes", "a\x1b[2K\rb\x7f", "\t", `a\x1b[2K\rb\x7f`},
		{"C1", "a\u0085b", "\t", `a\u0085b`},
		{"invalid UTF-8", "a\xffb", "\t", "a\xffb"},
		{"no indent", "a\nb\x1b", "", "a\nb\\x1b"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, SafeText(tt.in, tt.indent))
		})
	}
}

// TestScriptErrorCannotForge: a message with line breaks and terminal
// escapes is written with its lines indented and escapes escaped, so that
// no line of it reads as a host report.
func TestScriptErrorCannotForge(t *testing.T) {
	se := &ScriptError{Script: "evil", Callback: "onUpdate", Frame: 3,
		Message: "scripts/evil.lua:1: x\nscripts/good.lua:9: exceeded its 100ms budget in onUpdate\x1b[1A"}
	lines := strings.Split(se.Error(), "\n")
	require.Len(t, lines, 3)
	assert.Equal(t, "scripts/evil.lua:1: x", lines[0])
	assert.Equal(t, "\tscripts/good.lua:9: exceeded its 100ms budget in onUpdate\\x1b[1A", lines[1])
	assert.True(t, strings.HasPrefix(lines[2], "\tin script evil,"))
}
