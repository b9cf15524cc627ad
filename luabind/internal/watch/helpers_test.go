package watch

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// testQuiet is the quiet period of the tests: long enough that the few
// milliseconds between the steps of a save fall well inside it even under
// -race on a loaded machine, short enough to keep the suite fast.
const testQuiet = 80 * time.Millisecond

// settleWindow is how long a test waits to be sure that nothing more
// arrives: three quiet periods.
const settleWindow = 3 * testQuiet

// waitTimeout bounds every wait for an expected change.
const waitTimeout = 5 * time.Second

// newWatcher starts a watcher on dir with the test quiet period and closes
// it when the test ends.
func newWatcher(t *testing.T, dir string) *Watcher {
	t.Helper()
	w, err := New(Options{Dir: dir, Quiet: testQuiet})
	require.NoError(t, err)
	t.Cleanup(func() { require.NoError(t, w.Close()) })
	return w
}

// nextChanges waits (up to waitTimeout) for the first non-empty Drain, then
// keeps collecting for settleWindow, and returns every change seen, in
// order, without merging: a path reported twice appears twice.
func nextChanges(t *testing.T, w *Watcher) []Change {
	t.Helper()
	deadline := time.NewTimer(waitTimeout)
	defer deadline.Stop()
	var got []Change
	for len(got) == 0 {
		select {
		case <-w.Ready():
			got = append(got, w.Drain()...)
		case <-deadline.C:
			require.FailNow(t, "no change arrived", "waited %v", waitTimeout)
		}
	}
	return append(got, collectFor(w, settleWindow)...)
}

// collectFor returns every change that arrives within d.
func collectFor(w *Watcher, d time.Duration) []Change {
	timer := time.NewTimer(d)
	defer timer.Stop()
	var got []Change
	for {
		select {
		case <-w.Ready():
			got = append(got, w.Drain()...)
		case <-timer.C:
			return append(got, w.Drain()...)
		}
	}
}

// expectNothing asserts that no change arrives within settleWindow.
func expectNothing(t *testing.T, w *Watcher) {
	t.Helper()
	require.Empty(t, collectFor(w, settleWindow))
}

// writeFile writes content to dir/rel, creating parent directories.
func writeFile(t *testing.T, dir, rel, content string) {
	t.Helper()
	name := filepath.Join(dir, filepath.FromSlash(rel))
	require.NoError(t, os.MkdirAll(filepath.Dir(name), 0o755))
	require.NoError(t, os.WriteFile(name, []byte(content), 0o644))
}

// changed is the Change a save of content to rel must produce.
func changed(rel, content string) Change {
	return Change{Path: rel, Source: []byte(content)}
}

// removed is the Change a deletion of rel must produce.
func removed(rel string) Change {
	return Change{Path: rel, Removed: true}
}

// pause separates the steps of a save, as an editor or a script would.
func pause() { time.Sleep(5 * time.Millisecond) }
