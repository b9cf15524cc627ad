package luabind

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/luahost/luahost/runtime"
)

// TestErrorLog: the same error from many instances of one script in one
// frame is written once with a count of the others, each frame; distinct
// errors are kept with their counts and first and last frames; an error
// that is no instance's is written at once.
func TestErrorLog(t *testing.T) {
	var out bytes.Buffer
	var el *ErrorLog
	w := newWorld(t, func(o *runtime.Options, _ *Options) { o.OnError = runtime.Discard })
	el = NewErrorLog(w.rt, &out)
	for i := range 27 {
		e := w.rt.Spawn()
		require.NoError(t, w.rt.SetName(e, fmt.Sprintf("grunt %d", i+1)))
		w.attach(e, "errors/everyone", nil)
		require.NoError(t, w.rt.Activate(e))
	}
	w.spawn("boss", "errors/everyone")
	w.attach(w.spawn("", "spinner"), "errors/everyone", map[string]any{"kind": "b"})

	w.step(1, 0.1)
	first := out.String()
	assert.Equal(t, 1, strings.Count(first, "broken a"), first)
	assert.Contains(t, first, "broken a\n\tin script errors/everyone, grunt 1 (entity 1:1), onUpdate, frame 1\n")
	assert.Contains(t, first, "\t... and 27 more instances of errors/everyone\n")
	assert.Equal(t, 1, strings.Count(first, "broken b"), first)
	assert.NotContains(t, first[strings.Index(first, "broken b"):], "more instances", "a lone error has no count")

	out.Reset()
	w.rt.Report(errors.New("scripts/x.lua:1: not a reload"))
	assert.Equal(t, "scripts/x.lua:1: not a reload\n", out.String(), "an error of no instance is written at once")

	// A reload gives the faulted instances a fresh chance: they fail again.
	out.Reset()
	src, err := os.ReadFile("testdata/scripts/errors/everyone.lua")
	require.NoError(t, err)
	require.NoError(t, w.h.Reload("errors/everyone", src))
	w.step(1, 0.1)
	assert.Equal(t, 1, strings.Count(out.String(), "broken a"), out.String())
	assert.Contains(t, out.String(), "\t... and 27 more instances of errors/everyone\n")

	errs, dropped := el.Distinct()
	assert.Zero(t, dropped)
	require.Len(t, errs, 3, "%+v", errs)
	assert.Equal(t, ErrorCount{Script: "errors/everyone", Callback: "onUpdate", Message: errs[0].Message, Count: 56, First: 1, Last: 2}, errs[0])
	assert.Contains(t, errs[0].Message, "broken a")
	assert.Equal(t, 2, errs[1].Count)
	assert.Contains(t, errs[1].Message, "broken b")
	assert.Equal(t, ErrorCount{Message: "scripts/x.lua:1: not a reload", Count: 1}, errs[2])
}

// TestErrorTallyBounded: distinct errors past the first 1,000 are counted
// as dropped, not kept; a repeated one is counted, not kept twice.
func TestErrorTallyBounded(t *testing.T) {
	w := newWorld(t)
	tally := NewErrorTally(w.rt)
	for i := range maxDistinctErrors + 5 {
		w.rt.Report(fmt.Errorf("error %d", i))
	}
	w.rt.Report(errors.New("error 0"))
	errs, dropped := tally.Distinct()
	assert.Len(t, errs, maxDistinctErrors)
	assert.Equal(t, 5, dropped)
	assert.Equal(t, 2, errs[0].Count)
}
