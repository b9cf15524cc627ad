package luabind

import (
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/luahost/luahost/runtime"
)

// luaFrames are the dts of the frames every Lua test script gets: their
// sum, 0.875, is exact in binary, so scripts can compare ctx.time with ==.
var luaFrames = []float64{0.25, 0.5, 0.125}

// TestLua runs every script under testdata/scripts/api and
// testdata/scripts/sandbox as a subtest. Each script asserts with Lua
// assert/error (mostly through lib/check.lua); the runner attaches it to
// an entity named "subject" (Pending during onCreate), activates it, runs
// three frames (dt 0.25, 0.5, 0.125) and closes the host. A subtest passes
// when no script error was reported and the script called done() at
// least once, so a script cannot pass by not running.
//
// Besides done(), the runner registers echo(...) (returns its arguments as
// a list) and fail(msg) (returns msg as a Go error).
func TestLua(t *testing.T) {
	var files []string
	for _, dir := range []string{"api", "sandbox"} {
		m, err := filepath.Glob(filepath.Join(scriptDir, dir, "*.lua"))
		require.NoError(t, err)
		files = append(files, m...)
	}
	require.NotEmpty(t, files)
	for _, file := range files {
		rel, err := filepath.Rel(scriptDir, file)
		require.NoError(t, err)
		name := strings.TrimSuffix(filepath.ToSlash(rel), ".lua")
		t.Run(name, func(t *testing.T) { runLuaTest(t, name) })
	}
}

func runLuaTest(t *testing.T, name string) {
	w := newWorld(t)
	dones := 0
	require.NoError(t, w.h.Register("done", func(*runtime.Instance, []any) (any, error) {
		dones++
		return nil, nil
	}))
	require.NoError(t, w.h.Register("echo", func(_ *runtime.Instance, args []any) (any, error) {
		return args, nil
	}))
	require.NoError(t, w.h.Register("fail", func(_ *runtime.Instance, args []any) (any, error) {
		return nil, errors.New(fmt.Sprint(args...))
	}))
	e := w.rt.Spawn()
	require.NoError(t, w.rt.SetName(e, "subject"))
	_, err := w.h.Attach(e, name, nil)
	require.NoError(t, err)
	require.NoError(t, w.rt.Activate(e))
	for _, dt := range luaFrames {
		require.NoError(t, w.rt.Step(dt))
	}
	w.close()
	if out := w.out.String(); out != "" {
		t.Logf("printed:\n%s", out)
	}
	w.requireNoErrors()
	require.Positive(t, dones, "%s never called done()", name)
}
