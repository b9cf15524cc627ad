package watch

import (
	"crypto/sha256"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"slices"
	"time"

	"github.com/luahost/luahost/internal/files"
)

// fileState is what one read of a script found.
type fileState struct {
	data     []byte // content, when the file is present and stable
	absent   bool   // nothing, or a directory, at the path
	unstable bool   // the file changed or vanished during the read
	err      error  // any other failure
}

// read reads the script rel once, checking that it did not change during
// the read: the size, modification time and identity of the file before and
// after the read must agree, and the size must match the bytes read. A
// missing path or a directory is absent. A pipe, a device or a socket (or
// a link to one), a symbolic link that resolves outside the root, or a
// file larger than Options.MaxSize is an error that names it: it is not
// read, and the last version reported stands.
func (w *Watcher) read(rel string) fileState {
	name, err := files.Resolve(w.root, w.abs(rel))
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return fileState{absent: true}
	case err != nil:
		return fileState{err: fmt.Errorf("%s %w; not read", rel, err)}
	}
	before, err := os.Stat(name)
	switch {
	case errors.Is(err, fs.ErrNotExist) || (err == nil && before.IsDir()):
		return fileState{absent: true}
	case err == nil && !before.Mode().IsRegular():
		// A pipe or a device saved over a script is not its deletion:
		// it is refused as what it is, and the last version stands.
		return fileState{err: fmt.Errorf("%s is %s, not a regular file; not read", rel, special(before.Mode()))}
	}
	if err != nil {
		return fileState{err: err}
	}
	data, err := files.ReadRegular(name, w.maxSize)
	switch {
	case errors.Is(err, fs.ErrNotExist), errors.Is(err, files.ErrNotRegular):
		return fileState{unstable: true}
	case errors.Is(err, files.ErrTooLarge):
		return fileState{err: fmt.Errorf("%s %w; not read", rel, err)}
	case err != nil:
		return fileState{err: err}
	}
	after, err := os.Stat(name)
	if err != nil ||
		!os.SameFile(before, after) ||
		before.Size() != after.Size() ||
		!before.ModTime().Equal(after.ModTime()) ||
		int64(len(data)) != after.Size() {
		return fileState{unstable: true}
	}
	return fileState{data: data}
}

// special names the kind of a file that is neither regular nor a
// directory.
func special(m fs.FileMode) string {
	switch {
	case m&fs.ModeNamedPipe != 0:
		return "a named pipe"
	case m&fs.ModeCharDevice != 0:
		return "a character device"
	case m&fs.ModeDevice != 0:
		return "a device"
	case m&fs.ModeSocket != 0:
		return "a socket"
	}
	return "a special file"
}

// nextDeadline returns the earliest pending quiet-period deadline, none
// while the root is gone. It costs O(p) for p pending paths.
func (w *Watcher) nextDeadline() (time.Time, bool) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.gone {
		return time.Time{}, false
	}
	var next time.Time
	for _, t := range w.pending {
		if next.IsZero() || t.Before(next) {
			next = t
		}
	}
	return next, !next.IsZero()
}

// settleDue settles, in path order, every path whose quiet period ended by
// now. It runs on the loop goroutine and reads the files outside the lock.
func (w *Watcher) settleDue(now time.Time) {
	var due []string
	w.mu.Lock()
	if w.gone {
		// Nothing is read while the root is gone; back rescans.
		w.mu.Unlock()
		return
	}
	for p, t := range w.pending {
		if !t.After(now) {
			due = append(due, p)
			delete(w.pending, p)
		}
	}
	w.mu.Unlock()
	slices.Sort(due)

	changed := false
	for _, p := range due {
		if w.settle(p) {
			changed = true
		}
	}
	if changed {
		w.signal()
	}
}

// settle reads rel and records the result: a Change if the content differs
// from the last reported one (or the file disappeared), nothing for a no-op,
// and a new quiet period if the file changed during the read. It reports
// whether a Change was recorded.
func (w *Watcher) settle(rel string) bool {
	st := w.read(rel)
	if st.err != nil {
		w.report(st.err)
		return false
	}

	w.mu.Lock()
	defer w.mu.Unlock()
	if w.closed {
		return false
	}
	if _, again := w.pending[rel]; again {
		// A newer event restarted the quiet period during the read; that
		// later settle decides.
		return false
	}
	switch {
	case st.unstable:
		w.touchLocked(rel, time.Now())
		return false
	case st.absent:
		if _, ok := w.known[rel]; !ok {
			return false
		}
		delete(w.known, rel)
		w.out[rel] = Change{Path: rel, Removed: true}
		return true
	default:
		sum := sha256.Sum256(st.data)
		if old, ok := w.known[rel]; ok && old == sum {
			return false
		}
		w.known[rel] = sum
		w.out[rel] = Change{Path: rel, Source: st.data}
		return true
	}
}
