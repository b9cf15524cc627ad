package watch

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// expectGone waits for the one error that says the root is gone.
func expectGone(t *testing.T, w *Watcher) {
	t.Helper()
	select {
	case err := <-w.Errors():
		assert.ErrorContains(t, err, "is gone (moved or deleted); watching resumes when it is back")
	case <-time.After(waitTimeout):
		t.Fatal("no error says that the folder is gone")
	}
}

// TestRootGoneAndBack: when the watched folder disappears and comes back,
// one error says so, nothing is reported meanwhile, and watching resumes
// by itself: what changed while it was gone is reported, and later saves
// are seen.
func TestRootGoneAndBack(t *testing.T) {
	tests := []struct {
		name string
		// away makes root disappear, changes things while it is gone,
		// and brings it back.
		away func(t *testing.T, w *Watcher, root string)
	}{
		{"moved away and back", func(t *testing.T, w *Watcher, root string) {
			aside := root + ".aside"
			require.NoError(t, os.Rename(root, aside))
			expectGone(t, w)
			writeFile(t, aside, "a.lua", "return 'a2'")
			require.NoError(t, os.Remove(filepath.Join(aside, "gone.lua")))
			writeFile(t, aside, "sub/b.lua", "return 'b'")
			expectNothing(t, w)
			require.NoError(t, os.Rename(aside, root))
		}},
		{"deleted and recreated", func(t *testing.T, w *Watcher, root string) {
			require.NoError(t, os.RemoveAll(root))
			expectGone(t, w)
			expectNothing(t, w)
			require.NoError(t, os.Mkdir(root, 0o755))
			writeFile(t, root, "a.lua", "return 'a2'")
			writeFile(t, root, "sub/b.lua", "return 'b'")
			writeFile(t, root, "same.lua", "return 'same'")
		}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			root := filepath.Join(t.TempDir(), "scripts")
			writeFile(t, root, "a.lua", "return 'a1'")
			writeFile(t, root, "gone.lua", "return 'gone'")
			writeFile(t, root, "same.lua", "return 'same'")
			w := newWatcher(t, root)

			tc.away(t, w, root)
			assert.ElementsMatch(t, []Change{
				changed("a.lua", "return 'a2'"),
				removed("gone.lua"),
				changed("sub/b.lua", "return 'b'"),
			}, nextChanges(t, w))

			writeFile(t, root, "a.lua", "return 'a3'")
			writeFile(t, root, "sub/b.lua", "return 'b2'")
			assert.ElementsMatch(t, []Change{changed("a.lua", "return 'a3'"), changed("sub/b.lua", "return 'b2'")}, nextChanges(t, w))
			select {
			case err := <-w.Errors():
				t.Errorf("one error while gone, then another: %v", err)
			default:
			}
		})
	}
}
