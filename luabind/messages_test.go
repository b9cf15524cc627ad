package luabind

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// messagesDir holds one script per error message of the guide's section 10, under
// scriptDir: each fails when attached or in its onCreate, and says the
// message it must produce on a line "-- want: LINE: MESSAGE".
const messagesDir = "messages"

// TestMessages: every script under testdata/scripts/messages fails with
// exactly the message its "-- want:" line gives, located at its file and
// line; a syntax error as a *LoadError, a runtime error as the one
// ScriptError reported.
func TestMessages(t *testing.T) {
	root := filepath.Join(scriptDir, messagesDir)
	var cases []string
	require.NoError(t, filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(path, ".lua") {
			cases = append(cases, path)
		}
		return err
	}))
	require.NotEmpty(t, cases)
	for _, path := range cases {
		name := strings.TrimSuffix(filepath.ToSlash(strings.TrimPrefix(path, scriptDir+string(filepath.Separator))), ".lua")
		t.Run(strings.TrimPrefix(name, messagesDir+"/"), func(t *testing.T) {
			src, err := os.ReadFile(path)
			require.NoError(t, err)
			want := wantLine(t, string(src))
			w := newWorld(t)
			e := w.rt.Spawn()
			_, err = w.h.Attach(e, name, nil)
			var got string
			if err != nil {
				var le *LoadError
				require.True(t, errors.As(err, &le), "%T is not a *LoadError: %v", err, err)
				got = le.Message
			} else {
				require.NoError(t, w.rt.Activate(e))
				w.step(1, 0.1)
				errs := w.scriptErrors()
				require.Len(t, errs, 1, "the script must fail once")
				got = errs[0].Message
			}
			assert.Equal(t, filepath.ToSlash(path)+":"+want, got)
		})
	}
}

// wantLine returns what follows "-- want: " in src.
func wantLine(t *testing.T, src string) string {
	t.Helper()
	for l := range strings.SplitSeq(src, "\n") {
		if w, ok := strings.CutPrefix(l, "-- want: "); ok {
			return w
		}
	}
	t.Fatal(`no "-- want:" line`)
	return ""
}
