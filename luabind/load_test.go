package luabind

import (
	"errors"
	"fmt"
	"io"
	"os"
	"regexp"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/luahost/luahost/luabind/internal/lstring"
	"github.com/luahost/luahost/runtime"
)

// TestLoadErrors loads every broken script of testdata/scripts/bad through
// Load, Check and Attach: each fails with a *LoadError whose message
// starts with file:line, and nothing stays loaded.
func TestLoadErrors(t *testing.T) {
	tests := []struct {
		script string
		want   string // regexp of the whole message
		line   int    // -1: any line, as long as the message names it
	}{
		{"bad/syntax", `^testdata/scripts/bad/syntax\.lua:3: .*near 'end'$`, 3},
		{"bad/eof", `^testdata/scripts/bad/eof\.lua:\d+: .*near <eof>$`, -1},
		{"bad/chunk_error", `^testdata/scripts/bad/chunk_error\.lua:3: attempt to index a nil value \(local 'config'\)$`, 3},
		{"bad/chunk_raise", `^testdata/scripts/bad/chunk_raise\.lua:2: no config found$`, 2},
		{"bad/chunk_loop", `^testdata/scripts/bad/chunk_loop\.lua:2: exceeded its 2M-instruction budget in chunk$`, 2},
		{"bad/returns_string", `^testdata/scripts/bad/returns_string\.lua: the script must return a table, not string$`, 0},
		{"bad/returns_nothing", `^testdata/scripts/bad/returns_nothing\.lua: the script must return a table, not nil$`, 0},
		{"bad/priority_string", `^testdata/scripts/bad/priority_string\.lua: field 'priority' must be a number, not string$`, 0},
		{"bad/priority_fraction", `^testdata/scripts/bad/priority_fraction\.lua: field 'priority' must be a whole number, not 1\.5$`, 0},
		{"bad/name_number", `^testdata/scripts/bad/name_number\.lua: field 'name' must be a string, not number$`, 0},
		{"bad/update_number", `^testdata/scripts/bad/update_number\.lua: field 'onUpdate' must be a function, not number$`, 0},
		{"bad/create_string", `^testdata/scripts/bad/create_string\.lua: field 'onCreate' must be a function, not string$`, 0},
		{"bad/properties_string", `^testdata/scripts/bad/properties_string\.lua: field 'properties' must be a table, not string$`, 0},
		{"bad/properties_function", `^testdata/scripts/bad/properties_function\.lua: field 'properties': .*properties\.step: cannot store a function$`, 0},
		{"bad/events_number", `^testdata/scripts/bad/events_number\.lua: field 'events' must be a table, not number$`, 0},
		{"bad/events_value", `^testdata/scripts/bad/events_value\.lua: field 'events' must map event names to functions`, 0},
		{"bad/events_key", `^testdata/scripts/bad/events_key\.lua: field 'events' must map event names to functions`, 0},
		{"nope", `^testdata/scripts/nope\.lua: script "nope" not found$`, 0},
		{"../x", `^invalid script name "\.\./x"`, 0},
		{"/etc/passwd", `^invalid script name "/etc/passwd"`, 0},
		{"a.lua", `^invalid script name "a\.lua"`, 0},
	}
	for _, tt := range tests {
		t.Run(tt.script, func(t *testing.T) {
			w := newWorld(t, withBudget(20*time.Millisecond, 0))
			_, err := w.h.Load(tt.script)
			var le *LoadError
			require.True(t, errors.As(err, &le), "Load: want a *LoadError, got %T %v", err, err)
			assert.Regexp(t, tt.want, le.Message)
			assert.Equal(t, le.Message, err.Error())
			assert.NotContains(t, le.Message, "line:", "gopher-lua's own position form")
			assert.NotContains(t, le.Message, "column:", "gopher-lua's own position form")
			assert.Equal(t, tt.script, le.Script)
			if tt.line < 0 {
				assert.Positive(t, le.Line)
				assert.Contains(t, le.Message, fmt.Sprintf(".lua:%d:", le.Line))
			} else {
				assert.Equal(t, tt.line, le.Line)
			}
			assert.Nil(t, w.h.Script(tt.script), "a script that failed to load is not loaded")

			if tt.script != "nope" {
				assert.Regexp(t, tt.want, w.h.Check(tt.script), "Check reports what Load does")
			} else {
				assert.ErrorContains(t, w.h.Check(tt.script), "nope.lua")
			}

			e := w.rt.Spawn()
			_, err = w.h.Attach(e, tt.script, nil)
			assert.Regexp(t, tt.want, err, "Attach")
			insts, _ := w.rt.Instances(e)
			assert.Empty(t, insts)
			assert.Empty(t, w.errs, "a load error is returned, not reported as a script error")
		})
	}
}

// TestLoadFields reads every field of a script table, and the defaults of
// an empty one.
func TestLoadFields(t *testing.T) {
	w := newWorld(t)
	full, err := w.h.Load("helper/full")
	require.NoError(t, err)
	assert.Equal(t, "helper/full", full.Name())
	assert.Equal(t, "testdata/scripts/helper/full.lua", full.File())
	assert.Equal(t, "Full House", full.Label())
	assert.Equal(t, -3, full.Priority())
	assert.Equal(t, []string{"alpha", "zeta"}, full.EventNames(), "sorted")

	empty, err := w.h.Load("helper/empty")
	require.NoError(t, err)
	assert.Equal(t, "empty", empty.Label(), "the default name is the file's base name")
	assert.Equal(t, 0, empty.Priority())
	assert.Empty(t, empty.EventNames())

	again, err := w.h.Load("helper/full")
	require.NoError(t, err)
	assert.Same(t, full, again, "a script is loaded once")
	assert.Equal(t, []*Script{full, empty}, w.h.Scripts())
	stats := w.h.Stats()
	assert.Equal(t, 2, stats.Scripts)
	assert.Zero(t, stats.Reloads)

	// Instances get self from the properties and the attach's props;
	// an empty script still attaches, with an empty self.
	e := w.spawn("", "helper/empty")
	inst := w.attach(e, "helper/full", map[string]any{
		"speed": 5, "extra": []any{1, "a", true}, "who": e, "nested": map[string]any{"b": 2},
	})
	assert.Equal(t, `{extra={1, "a", true}, nested={b=2}, speed=5, who=entity(1:1)}`, selfString(t, inst))
	insts, err := w.rt.Instances(e)
	require.NoError(t, err)
	assert.Equal(t, "{}", selfString(t, insts[0]))
	w.requireNoErrors()
}

// selfString renders an instance's self as sorted plain data.
func selfString(t *testing.T, inst *runtime.Instance) string {
	t.Helper()
	v, err := toPlain(inst.Data.(*instance).self, "self")
	require.NoError(t, err)
	return runtime.FormatPlain(sortPlain(v))
}

// TestAttachErrors: props that are not plain data, a stale handle and a
// dying entity are refused; nothing is attached.
func TestAttachErrors(t *testing.T) {
	w := newWorld(t)
	e := w.spawn("")
	_, err := w.h.Attach(e, "helper/probe", map[string]any{"f": func() {}})
	assert.ErrorIs(t, err, runtime.ErrNotPlain)
	assert.ErrorContains(t, err, "attach helper/probe: not plain data: props.f: cannot store a value of type func()")

	dead := w.spawn("")
	_, err = w.rt.Kill(dead)
	require.NoError(t, err)
	_, err = w.h.Attach(dead, "helper/probe", nil)
	assert.ErrorIs(t, err, runtime.ErrStaleHandle)
	_, err = w.h.Attach(runtime.Handle{}, "helper/probe", nil)
	assert.ErrorIs(t, err, runtime.ErrStaleHandle)

	require.NoError(t, w.rt.Step(0.1))
	insts, err := w.rt.Instances(e)
	require.NoError(t, err)
	assert.Empty(t, insts)
	w.requireNoErrors()
}

// TestChunksCache: a source is compiled once; the cache keeps the latest
// source of each file; a syntax error is a *LoadError with its line.
func TestChunksCache(t *testing.T) {
	c := NewChunks()
	src := []byte("return { priority = 1 }\n")
	p1, err := c.compile("x", "dir/x.lua", src, lstring.DefaultMaxSize)
	require.NoError(t, err)
	p2, err := c.compile("x", "dir/x.lua", []byte(string(src)), lstring.DefaultMaxSize)
	require.NoError(t, err)
	assert.Same(t, p1, p2, "the same source is a cache hit")

	p3, err := c.compile("x", "dir/x.lua", []byte("return { priority = 2 }\n"), lstring.DefaultMaxSize)
	require.NoError(t, err)
	assert.NotSame(t, p1, p3, "a changed source is compiled again")
	p4, err := c.compile("y", "dir/y.lua", src, lstring.DefaultMaxSize)
	require.NoError(t, err)
	assert.NotSame(t, p1, p4, "the cache is by file")

	_, err = c.compile("x", "dir/x.lua", []byte("return {\n\n  x = = 1 }\n"), lstring.DefaultMaxSize)
	var le *LoadError
	require.True(t, errors.As(err, &le), "%T", err)
	assert.Equal(t, 3, le.Line)
	assert.Regexp(t, `^dir/x\.lua:3: .*near '='$`, le.Message)
	p5, err := c.compile("x", "dir/x.lua", []byte("return { priority = 2 }\n"), lstring.DefaultMaxSize)
	require.NoError(t, err)
	assert.Same(t, p3, p5, "a failed compile leaves the cached version alone")
}

// TestChunksShared: every instance of a script shares one state, and
// hosts that share Options.Chunks share the compiled prototype (hosts that
// do not, do not).
func TestChunksShared(t *testing.T) {
	chunks := NewChunks()
	a := newWorld(t, func(_ *runtime.Options, o *Options) { o.Chunks = chunks })
	b := newWorld(t, func(_ *runtime.Options, o *Options) { o.Chunks = chunks })
	c := newWorld(t)

	a.spawn("", "spinner")
	a.spawn("", "spinner")
	b.spawn("", "spinner")
	c.spawn("", "spinner")
	sa, sb, sc := a.h.Script("spinner"), b.h.Script("spinner"), c.h.Script("spinner")
	insts := a.rt.Schedule()
	require.Len(t, insts, 2)
	assert.Same(t, insts[0].Script(), insts[1].Script(), "one Script per name")
	assert.Same(t, sa.st.onUpdate.Proto, sb.st.onUpdate.Proto, "a shared Chunks compiles once for both hosts")
	assert.NotSame(t, sa.st.onUpdate.Proto, sc.st.onUpdate.Proto, "separate caches compile separately")
	assert.NotSame(t, sa.st.L, sb.st.L, "each host has its own states")

	// A reload with the same source is a cache hit too.
	src, err := os.ReadFile("testdata/scripts/spinner.lua")
	require.NoError(t, err)
	require.NoError(t, a.h.Reload("spinner", src))
	assert.Same(t, sb.st.onUpdate.Proto, a.h.Script("spinner").st.onUpdate.Proto)
}

// TestChunksParallel runs hosts sharing one Chunks on separate goroutines:
// prototypes are read-only, so the race detector finds nothing.
func TestChunksParallel(t *testing.T) {
	chunks := NewChunks()
	var wg sync.WaitGroup
	errs := make(chan error, 4)
	for range 4 {
		wg.Go(func() {
			rt := runtime.New(runtime.Options{OnError: func(err error) { errs <- err }})
			h, err := New(rt, Options{Dir: scriptDir, Stdout: io.Discard, Log: io.Discard, Chunks: chunks})
			if err != nil {
				errs <- err
				return
			}
			for range 20 {
				e := rt.Spawn()
				if _, err := h.Attach(e, "spinner", nil); err != nil {
					errs <- err
					return
				}
				_ = rt.Activate(e)
			}
			for range 10 {
				_ = rt.Step(1.0 / 60)
			}
			_ = h.Close()
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
}

// TestCheck: Check loads into a throw-away state and keeps nothing.
func TestCheck(t *testing.T) {
	w := newWorld(t)
	require.NoError(t, w.h.Check("spinner"))
	require.NoError(t, w.h.Check("helper/full"))
	assert.Nil(t, w.h.Script("spinner"), "nothing stays loaded")
	assert.Empty(t, w.h.Scripts())
	err := w.h.Check("bad/syntax")
	var le *LoadError
	require.True(t, errors.As(err, &le))
	assert.Equal(t, 3, le.Line)
	assert.Equal(t, "bad/syntax", le.Script)
	assert.Equal(t, "testdata/scripts/bad/syntax.lua", le.File)
	assert.Regexp(t, regexp.MustCompile(`^invalid script name`), w.h.Check("../x"))
}
