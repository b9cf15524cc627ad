package luabind

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/luahost/luahost/runtime"
)

// TestErrorCause: a script error caused by a Go error of the host's API
// (data that is not plain, a script that does not load, an entity that
// takes no scripts, a dispatch nested too deep) is reported as a
// *runtime.ScriptError whose Err is that Go error: errors.Is and
// errors.As see through it. A table over testdata/scripts/cause/.
func TestErrorCause(t *testing.T) {
	var loadErr *LoadError
	isLoad := func(err error) bool { return errors.As(err, &loadErr) && loadErr.Script == "cause/missing" }
	is := func(target error) func(error) bool {
		return func(err error) bool { return errors.Is(err, target) }
	}
	want := map[string]func(error) bool{
		"argument":   is(runtime.ErrNotPlain),
		"attach":     isLoad,
		"blackboard": is(runtime.ErrNotPlain),
		"depth":      is(runtime.ErrEventDepth),
		"dying":      is(runtime.ErrNotAttachable),
		"emit":       is(runtime.ErrNotPlain),
		"spawn":      isLoad,
		"timer":      is(runtime.ErrNotPlain),
	}
	files, err := filepath.Glob(filepath.Join(scriptDir, "cause", "*.lua"))
	require.NoError(t, err)
	require.Len(t, files, len(want), "a case for every file")
	for _, file := range files {
		name := strings.TrimSuffix(filepath.Base(file), ".lua")
		t.Run(name, func(t *testing.T) {
			check, ok := want[name]
			require.True(t, ok, "no expectation for %s", file)
			src, err := os.ReadFile(file)
			require.NoError(t, err)
			w := newWorld(t)
			require.NoError(t, w.h.Register("take", func(*runtime.Instance, []any) (any, error) { return nil, nil }))
			w.spawn("", "cause/"+name)
			w.step(1, 0.1)
			errs := w.scriptErrors()
			require.NotEmpty(t, errs, "%s reports an error", src)
			se := errs[len(errs)-1]
			assert.True(t, check(se), "the report wraps its cause: %v (Err %T)", se, se.Err)
			assert.True(t, strings.HasPrefix(se.Message, "testdata/scripts/cause/"+name+".lua:"), "located in the script: %s", se.Message)
		})
	}
}
