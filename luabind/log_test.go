package luabind

import (
	"bytes"
	"context"
	"fmt"
	"log/slog"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/luahost/luahost/runtime"
)

// recorder is a slog.Handler that keeps every record as one line:
// "LEVEL message key=value ...", attributes in order.
type recorder struct {
	lines *[]string
	attrs []slog.Attr
}

func (r recorder) Enabled(context.Context, slog.Level) bool { return true }
func (r recorder) WithGroup(string) slog.Handler            { return r }
func (r recorder) WithAttrs(as []slog.Attr) slog.Handler {
	return recorder{lines: r.lines, attrs: append(append([]slog.Attr(nil), r.attrs...), as...)}
}
func (r recorder) Handle(_ context.Context, rec slog.Record) error {
	var b strings.Builder
	fmt.Fprintf(&b, "%s %s", rec.Level, rec.Message)
	add := func(a slog.Attr) bool {
		if a.Key == "duration" {
			a.Value = slog.StringValue("D")
		}
		fmt.Fprintf(&b, " %s=%v", a.Key, a.Value)
		return true
	}
	for _, a := range r.attrs {
		add(a)
	}
	rec.Attrs(add)
	*r.lines = append(*r.lines, b.String())
	return nil
}

// TestSlog: with a slog.Logger in runtime.Options, script errors, ctx.log
// lines and reload notices go through it with the script, entity and
// frame as attributes, and nothing is written to Options.Log.
func TestSlog(t *testing.T) {
	var lines []string
	logger := slog.New(recorder{lines: &lines})
	var text bytes.Buffer
	rt := runtime.New(runtime.Options{Logger: logger})
	h, err := New(rt, Options{Dir: scriptDir, Log: &text, Stdout: &text})
	require.NoError(t, err)
	defer h.Close()
	e := rt.Spawn()
	_, err = h.Attach(e, "embed/logger", nil)
	require.NoError(t, err)
	require.NoError(t, rt.Activate(e))
	require.NoError(t, rt.Step(0.1))
	require.NoError(t, rt.Step(0.1))
	require.NoError(t, h.Reload("embed/logger", []byte(`return {}`)))
	require.Error(t, h.Reload("embed/logger", []byte(`return {`)))

	assert.Equal(t, []string{
		"INFO hello\t42 script=embed/logger entity=entity(1:1) frame=1",
		"ERROR testdata/scripts/embed/logger.lua:9: boom script=embed/logger entity=entity(1:1) frame=2 callback=onUpdate file=testdata/scripts/embed/logger.lua line=9 traceback=stack traceback:\n[G]: in function 'error'\n" +
			"testdata/scripts/embed/logger.lua:9: in function 'onUpdate'",
		"INFO reloaded testdata/scripts/embed/logger.lua script=embed/logger frame=2 instances=1 duration=D",
	}, lines)
	assert.Empty(t, text.String(), "nothing goes to Log")
}

// TestSlogHostLogger: a logger in luabind.Options takes the host's lines
// in place of the runtime's logger; the watcher's warnings go there too.
func TestSlogHostLogger(t *testing.T) {
	var hostLines, rtLines []string
	rt := runtime.New(runtime.Options{Logger: slog.New(recorder{lines: &rtLines})})
	h, err := New(rt, Options{Dir: scriptDir, Logger: slog.New(recorder{lines: &hostLines})})
	require.NoError(t, err)
	defer h.Close()
	require.NoError(t, h.Reload("quiet", []byte(`return { onCreate = function(self, ctx) ctx.log("made") end }`)))
	_, err = h.Attach(rt.Spawn(), "quiet", nil)
	require.NoError(t, err)
	h.warn(h.Script("quiet"), "a warning")
	assert.Equal(t, []string{
		"INFO made script=quiet entity=entity(1:1) frame=0",
		"WARN a warning frame=0 script=quiet",
	}, hostLines)
	assert.Empty(t, rtLines)
}

// TestOutputCannotForge: print, ctx.log and error cannot write a line
// that passes for a host report: in a log line or an error message,
// control characters are escaped and the lines after the first indented.
// print writes its bytes as they are, as Lua 5.1 does: its output is the
// scripts' own stream, apart from the host's.
func TestOutputCannotForge(t *testing.T) {
	const src = `return {
  onUpdate = function(self, ctx)
    print("a\27[2K\rb\nc")
    ctx.log("x\nscripts/good.lua:3: exceeded its 100ms budget in onUpdate\27[1A")
    error("y\nscripts/good.lua:4: boom", 0)
  end,
}`
	w := newWorld(t)
	require.NoError(t, w.h.Reload("forger", []byte(src)))
	w.spawn("", "forger")
	w.step(1, 0.1)
	assert.Equal(t, []string{"a\x1b[2K\rb", "c"}, w.takeLines())
	assert.Equal(t, "forger entity(1:1): x\n\tscripts/good.lua:3: exceeded its 100ms budget in onUpdate\\x1b[1A\n", w.log.String())
	errs := w.scriptErrors()
	require.Len(t, errs, 1)
	for _, line := range strings.Split(errs[0].Error(), "\n")[1:] {
		assert.True(t, strings.HasPrefix(line, "\t"), "an indented line: %q", line)
	}
}
