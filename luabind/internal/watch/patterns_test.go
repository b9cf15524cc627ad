package watch

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"
)

// A save writes content to the file name the way one editor or tool does.
type save func(t *testing.T, name, content string)

// saveInPlace opens the file truncated and writes it in one go.
func saveInPlace(t *testing.T, name, content string) {
	require.NoError(t, os.WriteFile(name, []byte(content), 0o644))
}

// saveTruncateThenWrite truncates the file, pauses, then writes: the watcher
// sees an empty file first.
func saveTruncateThenWrite(t *testing.T, name, content string) {
	f, err := os.OpenFile(name, os.O_WRONLY|os.O_TRUNC, 0o644)
	require.NoError(t, err)
	require.NoError(t, f.Sync())
	pause()
	_, err = f.WriteString(content)
	require.NoError(t, err)
	require.NoError(t, f.Close())
}

// saveTempRename writes a temporary file next to the target and renames it
// over the target (atomic save).
func saveTempRename(t *testing.T, name, content string) {
	tmp := name + ".tmp"
	require.NoError(t, os.WriteFile(tmp, []byte(content), 0o644))
	pause()
	require.NoError(t, os.Rename(tmp, name))
}

// saveVim does what vim does with 'backupcopy' off: probe the directory with
// "4913", rename the original to a "~" backup, write a new file, delete the
// backup.
func saveVim(t *testing.T, name, content string) {
	probe := filepath.Join(filepath.Dir(name), "4913")
	require.NoError(t, os.WriteFile(probe, nil, 0o644))
	require.NoError(t, os.Remove(probe))
	backup := name + "~"
	require.NoError(t, os.Rename(name, backup))
	pause()
	require.NoError(t, os.WriteFile(name, []byte(content), 0o644))
	pause()
	require.NoError(t, os.Remove(backup))
}

// saveJetBrains does what JetBrains' safe write does: write name___jb_tmp___,
// rename the original to name___jb_old___, rename the temporary to name,
// delete the old one.
func saveJetBrains(t *testing.T, name, content string) {
	tmp, old := name+"___jb_tmp___", name+"___jb_old___"
	require.NoError(t, os.WriteFile(tmp, []byte(content), 0o644))
	pause()
	require.NoError(t, os.Rename(name, old))
	pause()
	require.NoError(t, os.Rename(tmp, name))
	pause()
	require.NoError(t, os.Remove(old))
}

// saveDeleteRecreate deletes the file and creates it again.
func saveDeleteRecreate(t *testing.T, name, content string) {
	require.NoError(t, os.Remove(name))
	pause()
	require.NoError(t, os.WriteFile(name, []byte(content), 0o644))
}

// TestSavePatterns checks that every way of saving yields exactly one Change
// with the final content, twice in a row on the same files (the second save
// is where watching single files breaks), at the root and in a subdirectory.
func TestSavePatterns(t *testing.T) {
	t.Parallel()
	patterns := []struct {
		name string
		save save
	}{
		{"in-place write", saveInPlace},
		{"truncate then write", saveTruncateThenWrite},
		{"temp file and rename", saveTempRename},
		{"vim backup rename", saveVim},
		{"JetBrains safe write", saveJetBrains},
		{"delete and recreate", saveDeleteRecreate},
	}
	for _, p := range patterns {
		t.Run(p.name, func(t *testing.T) {
			t.Parallel()
			dir := t.TempDir()
			rels := []string{"ai/patrol.lua", "patrol.lua"} // sorted, as Drain returns them
			for _, rel := range rels {
				writeFile(t, dir, rel, "return { version = 0 }\n")
			}
			w := newWatcher(t, dir)
			for i := 1; i <= 2; i++ {
				content := fmt.Sprintf("return { version = %d }\n", i)
				var want []Change
				for _, rel := range rels {
					p.save(t, filepath.Join(dir, filepath.FromSlash(rel)), content)
					want = append(want, changed(rel, content))
				}
				require.Equal(t, want, nextChanges(t, w), "save %d", i)
			}
		})
	}
}
