package watch

import (
	"crypto/sha256"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"time"

	"github.com/fsnotify/fsnotify"
)

const (
	// DefaultQuiet is the quiet period used when Options.Quiet is zero.
	DefaultQuiet = 50 * time.Millisecond
	// DefaultExt is the extension used when Options.Ext is empty.
	DefaultExt = ".lua"
	// DefaultMaxSize is the largest file read when Options.MaxSize is zero.
	DefaultMaxSize = 16 << 20

	// rootPoll is how often a root that is gone is looked for.
	rootPoll = 200 * time.Millisecond

	// errBuffer is the capacity of the Errors channel; errors that find it
	// full are dropped so that the watcher never blocks on a slow reader.
	errBuffer = 16
)

// Options configures a Watcher. Only Dir is required.
type Options struct {
	// Dir is the script directory, watched with all its subdirectories. It
	// must exist when New is called. A relative path is made absolute once,
	// at New.
	Dir string

	// Quiet is how long a file must go without file-system events before it
	// is read, so that one save is one Change. The default (zero) value is
	// 50ms (DefaultQuiet); a negative value also means the default.
	Quiet time.Duration

	// Ext is the file extension that matters; other files are ignored. The
	// default (empty) value is ".lua" (DefaultExt). A missing leading dot is
	// added, so "lua" means ".lua".
	Ext string

	// MaxSize is the largest script read, in bytes; a larger one is
	// reported on Errors and not read. The default (zero) value is 16 MiB
	// (DefaultMaxSize); a negative value also means the default.
	MaxSize int64
}

// Change is the settled state of one script file.
type Change struct {
	// Path is the file's slash-separated path relative to Options.Dir, for
	// example "ai/patrol.lua".
	Path string

	// Removed reports that the file is gone: it was deleted (or moved away)
	// and had not reappeared when its quiet period ended.
	Removed bool

	// Source is the file's whole content when Removed is false, read after
	// the quiet period and checked to be stable across the read. It is owned
	// by the receiver. It is nil when Removed is true.
	Source []byte
}

// Watcher watches a script directory recursively and collects settled
// changes for Drain. Create one with New and stop it with Close.
//
// A Watcher is safe for concurrent use: one internal goroutine handles
// file-system events and quiet-period deadlines, and Ready, Drain, Errors
// and Close may be called from any goroutine.
type Watcher struct {
	root    string // absolute, cleaned Options.Dir
	quiet   time.Duration
	ext     string
	maxSize int64

	fs       *fsnotify.Watcher
	ready    chan struct{} // capacity 1: Drain has something new
	errs     chan error    // capacity errBuffer, never blocks the sender
	wake     chan struct{} // capacity 1: pending deadlines changed outside the loop
	done     chan struct{} // closed by Close
	loopDone chan struct{} // closed when the loop goroutine returns

	closeOnce sync.Once

	// mu guards everything below. File reads and watch registration happen
	// outside it, so Drain never waits for the file system.
	mu      sync.Mutex
	closed  bool
	gone    bool                         // the root is moved away or deleted; settling waits for it
	dirs    map[string]struct{}          // watched directories, relative; "." is the root
	known   map[string][sha256.Size]byte // content hash of every present file, as last reported (or snapshotted at New)
	pending map[string]time.Time         // quiet-period deadline per path
	out     map[string]Change            // settled and not yet drained, latest state per path
}

// New snapshots the scripts under opts.Dir (a content hash per file, so that
// saves that change nothing are not reported) and starts watching opts.Dir
// and every subdirectory that is not ignored, recursively.
//
// It returns an error if opts.Dir is empty, missing or not a directory, or
// if a directory cannot be watched (for example when the system limit on
// watches is reached). New costs one watch per directory and one read of
// every script; it starts one goroutine, stopped by Close.
func New(opts Options) (*Watcher, error) {
	if opts.Dir == "" {
		return nil, errors.New("watch: Options.Dir is required")
	}
	root, err := filepath.Abs(opts.Dir)
	if err != nil {
		return nil, fmt.Errorf("watch: %w", err)
	}
	fi, err := os.Stat(root)
	if err != nil {
		return nil, fmt.Errorf("watch: %w", err)
	}
	if !fi.IsDir() {
		return nil, fmt.Errorf("watch: %s is not a directory", root)
	}

	quiet := opts.Quiet
	if quiet <= 0 {
		quiet = DefaultQuiet
	}
	ext := opts.Ext
	if ext == "" {
		ext = DefaultExt
	}
	if !strings.HasPrefix(ext, ".") {
		ext = "." + ext
	}
	maxSize := opts.MaxSize
	if maxSize <= 0 {
		maxSize = DefaultMaxSize
	}

	fsw, err := fsnotify.NewWatcher()
	if err != nil {
		return nil, fmt.Errorf("watch: %w", err)
	}
	w := &Watcher{
		root:     root,
		quiet:    quiet,
		ext:      ext,
		maxSize:  maxSize,
		fs:       fsw,
		ready:    make(chan struct{}, 1),
		errs:     make(chan error, errBuffer),
		wake:     make(chan struct{}, 1),
		done:     make(chan struct{}),
		loopDone: make(chan struct{}),
		dirs:     make(map[string]struct{}),
		known:    make(map[string][sha256.Size]byte),
		pending:  make(map[string]time.Time),
		out:      make(map[string]Change),
	}

	// Watches first, then the snapshot: a write that races with New is
	// either in the snapshot or seen as an event.
	files, err := w.watchTree(".")
	if err != nil {
		_ = fsw.Close()
		return nil, err
	}
	for _, p := range files {
		switch st := w.read(p); {
		case st.unstable:
			// Being written right now: settle it like any change.
			w.pending[p] = time.Now().Add(w.quiet)
		case st.err != nil:
			w.report(st.err)
		case !st.absent:
			w.known[p] = sha256.Sum256(st.data)
		}
	}

	go w.loop()
	return w, nil
}

// Ready returns a channel that receives a value whenever Drain has something
// new. The channel has a buffer of one and is sent to without blocking, so
// several changes may share one signal, and a signal may find Drain empty if
// Drain was called in between. It is never closed, and it is not signalled
// after Close.
func (w *Watcher) Ready() <-chan struct{} { return w.ready }

// Drain returns, without blocking, every change whose quiet period has
// passed since the previous Drain, sorted by Path, each path at most once
// with its latest state. It returns nil when there is nothing new. Changes
// settled before Close can still be drained after it.
//
// Drain costs O(k log k) for k changes and never touches the file system.
func (w *Watcher) Drain() []Change {
	w.mu.Lock()
	if len(w.out) == 0 {
		w.mu.Unlock()
		return nil
	}
	changes := make([]Change, 0, len(w.out))
	for _, c := range w.out {
		changes = append(changes, c)
	}
	clear(w.out)
	w.mu.Unlock()

	slices.SortFunc(changes, func(a, b Change) int { return strings.Compare(a.Path, b.Path) })
	return changes
}

// Errors returns a channel of watcher errors: failures to watch a new
// directory or to read a file, and errors of the underlying notifier.
// Event-queue overflows are not reported here; they trigger a rescan. The
// channel is buffered and errors that find it full are dropped, so an
// unread channel never blocks the watcher. It is never closed.
func (w *Watcher) Errors() <-chan error { return w.errs }

// Close stops watching and waits for the internal goroutine and the
// notifier to finish; no goroutine is left behind. After Close, Ready is not
// signalled again. Close is idempotent: the first call returns the error of
// closing the notifier, later calls return nil.
func (w *Watcher) Close() error {
	var err error
	w.closeOnce.Do(func() {
		w.mu.Lock()
		w.closed = true
		clear(w.pending)
		w.mu.Unlock()

		close(w.done)
		err = w.fs.Close()
		<-w.loopDone
	})
	if err != nil {
		return fmt.Errorf("watch: close: %w", err)
	}
	return nil
}

// loop is the one goroutine that receives notifier events and errors and
// settles paths whose quiet period has ended. It returns when Close is
// called or the notifier's channels close.
func (w *Watcher) loop() {
	defer close(w.loopDone)
	timer := time.NewTimer(time.Hour)
	timer.Stop()
	defer timer.Stop()
	poll := time.NewTicker(rootPoll)
	poll.Stop()
	defer poll.Stop()
	polling := false
	for {
		select {
		case <-w.done:
			return
		case ev, ok := <-w.fs.Events:
			if !ok {
				return
			}
			w.handle(ev)
		case err, ok := <-w.fs.Errors:
			if !ok {
				return
			}
			if errors.Is(err, fsnotify.ErrEventOverflow) {
				w.rescan()
			} else {
				w.report(err)
			}
		case <-timer.C:
			w.settleDue(time.Now())
		case <-poll.C:
			w.back()
		case <-w.wake:
		}
		if gone := w.isGone(); gone != polling {
			polling = gone
			if polling {
				poll.Reset(rootPoll)
			} else {
				poll.Stop()
			}
		}
		if next, ok := w.nextDeadline(); ok {
			timer.Reset(time.Until(next))
		} else {
			timer.Stop()
		}
	}
}

// report passes err on to Errors without blocking; it is dropped if the
// channel is full or the watcher is closed.
func (w *Watcher) report(err error) {
	w.mu.Lock()
	closed := w.closed
	w.mu.Unlock()
	if closed {
		return
	}
	select {
	case w.errs <- fmt.Errorf("watch: %w", err):
	default:
	}
}

// signal tells the Ready channel that Drain has something new, without
// blocking.
func (w *Watcher) signal() {
	select {
	case w.ready <- struct{}{}:
	default:
	}
}

// poke wakes the loop so that it re-arms its timer after pending deadlines
// were changed by another goroutine.
func (w *Watcher) poke() {
	select {
	case w.wake <- struct{}{}:
	default:
	}
}
