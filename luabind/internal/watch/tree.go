package watch

import (
	"errors"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"strings"
	"time"

	"github.com/fsnotify/fsnotify"
)

// ignoredName reports whether a single path element is an editor temporary
// or a hidden file or directory: dotfiles (which covers vim's ".name.swp"),
// backups ending in "~", swap files ending in ".swp" or ".swx", vim's
// writability probe "4913", and JetBrains' safe-write files ending in
// "___jb_tmp___" or "___jb_old___".
func ignoredName(name string) bool {
	switch {
	case strings.HasPrefix(name, "."),
		strings.HasSuffix(name, "~"),
		strings.HasSuffix(name, ".swp"),
		strings.HasSuffix(name, ".swx"),
		name == "4913",
		strings.HasSuffix(name, "___jb_tmp___"),
		strings.HasSuffix(name, "___jb_old___"):
		return true
	}
	return false
}

// ignored reports whether any element of the slash-separated relative path
// rel is ignored, so that everything inside a dot-directory is ignored too.
// The root itself (".") is never ignored.
func ignored(rel string) bool {
	if rel == "." {
		return false
	}
	for elem := range strings.SplitSeq(rel, "/") {
		if ignoredName(elem) {
			return true
		}
	}
	return false
}

// matches reports whether rel names a script: not ignored, and ending in the
// watched extension.
func (w *Watcher) matches(rel string) bool {
	return strings.HasSuffix(path.Base(rel), w.ext) && !ignored(rel)
}

// rel turns an absolute path reported by the notifier into a slash-separated
// path relative to the root; ok is false for paths outside the root.
func (w *Watcher) rel(name string) (rel string, ok bool) {
	r, err := filepath.Rel(w.root, name)
	if err != nil || r == ".." || strings.HasPrefix(r, ".."+string(filepath.Separator)) {
		return "", false
	}
	return filepath.ToSlash(r), true
}

// abs turns a slash-separated relative path into an absolute one.
func (w *Watcher) abs(rel string) string {
	return filepath.Join(w.root, filepath.FromSlash(rel))
}

// under reports whether p is dir or lies below it; every path lies below the
// root ".".
func under(p, dir string) bool {
	return dir == "." || p == dir || strings.HasPrefix(p, dir+"/")
}

// handle reacts to one notifier event: it keeps the set of watched
// directories in step with the tree and restarts the quiet period of every
// script the event may concern. It runs on the loop goroutine.
func (w *Watcher) handle(ev fsnotify.Event) {
	rel, ok := w.rel(ev.Name)
	if !ok || ignored(rel) {
		return
	}
	if rel == "." {
		if ev.Has(fsnotify.Remove) || ev.Has(fsnotify.Rename) {
			w.lost()
		}
		return
	}
	if ev.Has(fsnotify.Remove) || ev.Has(fsnotify.Rename) {
		// A watched directory that is gone or moved takes its subtree with
		// it: drop the stale watches and settle every script that was in it.
		w.forgetTree(rel)
	}
	if ev.Has(fsnotify.Create) {
		if fi, err := os.Stat(ev.Name); err == nil && fi.IsDir() {
			w.addTree(rel)
			return
		}
	}
	if w.matches(rel) {
		w.mu.Lock()
		w.touchLocked(rel, time.Now())
		w.mu.Unlock()
	}
}

// touchLocked (re)starts the quiet period of rel. w.mu must be held.
func (w *Watcher) touchLocked(rel string, now time.Time) {
	if w.closed {
		return
	}
	w.pending[rel] = now.Add(w.quiet)
}

// addTree watches a directory that appeared (created or moved in) and
// everything below it, and starts the quiet period of every script already
// inside: files written before the watch existed produced no event.
func (w *Watcher) addTree(rel string) {
	files, err := w.watchTree(rel)
	if err != nil {
		w.report(err)
	}
	now := time.Now()
	w.mu.Lock()
	for _, p := range files {
		w.touchLocked(p, now)
	}
	w.mu.Unlock()
}

// forgetTree handles the removal or renaming of rel. If rel is a watched
// directory, the watches of its subtree are removed (a moved directory's
// watches would otherwise keep reporting its old path) and every known or
// pending script below it is settled again. For a file it does nothing.
func (w *Watcher) forgetTree(rel string) {
	now := time.Now()
	var stale []string
	w.mu.Lock()
	if _, isDir := w.dirs[rel]; isDir {
		for d := range w.dirs {
			if under(d, rel) {
				stale = append(stale, d)
				delete(w.dirs, d)
			}
		}
		for p := range w.known {
			if under(p, rel) {
				w.touchLocked(p, now)
			}
		}
		for p := range w.pending {
			if under(p, rel) {
				w.touchLocked(p, now)
			}
		}
	}
	w.mu.Unlock()
	for _, d := range stale {
		// The notifier may already have dropped the watch itself.
		_ = w.fs.Remove(w.abs(d))
	}
}

// watchTree adds a watch for the directory rel and every directory below it
// that is not ignored, and returns the scripts found. Each directory is
// watched before it is listed, so a file created meanwhile is either listed
// or reported as an event. Directories that vanish during the walk are
// skipped; the first other error is returned after the walk completes.
// Symbolic links to directories are not followed.
func (w *Watcher) watchTree(rel string) ([]string, error) {
	var (
		files    []string
		firstErr error
	)
	keep := func(err error) {
		if firstErr == nil && !errors.Is(err, fs.ErrNotExist) {
			firstErr = err
		}
	}
	start := w.abs(rel)
	_ = filepath.WalkDir(start, func(name string, d fs.DirEntry, err error) error {
		if err != nil {
			keep(err)
			if d != nil && d.IsDir() {
				return filepath.SkipDir
			}
			return nil
		}
		r, ok := w.rel(name)
		if !ok {
			return nil
		}
		if ignored(r) {
			if d.IsDir() {
				return filepath.SkipDir
			}
			return nil
		}
		if d.IsDir() {
			if err := w.fs.Add(name); err != nil {
				keep(err)
				return filepath.SkipDir
			}
			w.mu.Lock()
			w.dirs[r] = struct{}{}
			w.mu.Unlock()
			return nil
		}
		if w.matches(r) {
			files = append(files, r)
		}
		return nil
	})
	return files, firstErr
}

// lost handles the disappearance of the root, moved away or deleted:
// every watch is dropped, settling pauses (each script keeps its last
// reported state, so a folder that is gone for a while is not a deletion
// of every script), and the loop polls every rootPoll for the root to come
// back, then rescans (back). One error says that the root is gone, unless
// it is back already.
func (w *Watcher) lost() {
	w.forgetTree(".")
	w.mu.Lock()
	w.gone = true
	w.mu.Unlock()
	if fi, err := os.Stat(w.root); err != nil || !fi.IsDir() {
		w.report(errors.New("the folder is gone (moved or deleted); watching resumes when it is back"))
	}
}

// back reports whether the root is a directory again after lost; if so it
// resumes watching with a rescan, which reports what changed meanwhile.
func (w *Watcher) back() bool {
	if fi, err := os.Stat(w.root); err != nil || !fi.IsDir() {
		return false
	}
	w.mu.Lock()
	w.gone = false
	w.mu.Unlock()
	w.rescan()
	return true
}

// isGone reports whether the root is gone (between lost and back).
func (w *Watcher) isGone() bool {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.gone
}

// rescan rebuilds the watches of the whole tree and settles every script,
// known or found: after the quiet period each one is read and compared with
// the last reported content, so that Drain reports exactly what changed,
// appeared or disappeared while events were lost. It runs on an event-queue
// overflow and may be called from any goroutine.
//
// All watches are removed and added again, because a directory moved while
// events were lost may still be watched under its old path. Events in the
// short gap are not lost for good: every file is read after the rescan
// anyway. Cost: one walk of the tree, one watch per directory, and one read
// of every script.
func (w *Watcher) rescan() {
	w.mu.Lock()
	if w.closed || w.gone {
		w.mu.Unlock()
		return
	}
	old := make([]string, 0, len(w.dirs))
	for d := range w.dirs {
		old = append(old, d)
	}
	clear(w.dirs)
	w.mu.Unlock()
	for _, d := range old {
		_ = w.fs.Remove(w.abs(d))
	}

	files, err := w.watchTree(".")
	if err != nil {
		w.report(err)
	}

	now := time.Now()
	w.mu.Lock()
	for p := range w.known {
		w.touchLocked(p, now)
	}
	for _, p := range files {
		w.touchLocked(p, now)
	}
	w.mu.Unlock()
	w.poke()
}
