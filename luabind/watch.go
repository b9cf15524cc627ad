package luabind

import (
	"context"
	"fmt"

	"github.com/luahost/luahost/luabind/internal/watch"
)

// watcher connects the file watcher to the host. The watcher's goroutines
// only read files; reloads are applied by the goroutine driving the
// runtime, between frames.
type watcher struct {
	w    *watch.Watcher
	stop context.CancelFunc
}

// Watch starts hot reload from disk: the script directory is
// watched recursively, and every script whose file (or a module it
// required) changed is reloaded at the start of the next Step, between
// frames. Reload notices go to Options.Log, refused reloads to the
// runtime's OnError. Watching ends when ctx is done, when stop is called,
// or when the host closes. A host reading Options.FS cannot watch.
func (h *Host) Watch(ctx context.Context) (stop func() error, err error) {
	if h.opts.FS != nil {
		return nil, fmt.Errorf("watch %s: scripts are read from Options.FS, which cannot be watched", h.opts.Dir)
	}
	if h.watch != nil {
		return nil, fmt.Errorf("watch %s: already watching", h.opts.Dir)
	}
	w, err := watch.New(watch.Options{Dir: h.opts.Dir, MaxSize: MaxScriptSize})
	if err != nil {
		return nil, fmt.Errorf("watch %s: %w", h.opts.Dir, err)
	}
	ctx, cancel := context.WithCancel(ctx)
	go func() {
		<-ctx.Done()
		_ = w.Close()
	}()
	h.watch = &watcher{w: w, stop: cancel}
	return func() error { cancel(); return nil }, nil
}

// WatchReady is signalled when the watcher has changes waiting for the next
// Step; nil when not watching. Tests and real-time loops wait on it.
func (h *Host) WatchReady() <-chan struct{} {
	if h.watch == nil {
		return nil
	}
	return h.watch.w.Ready()
}

// applyWatched applies every change the watcher has ready.
func (h *Host) applyWatched() {
errors:
	for {
		select {
		case err := <-h.watch.w.Errors():
			h.warn(nil, fmt.Sprintf("watching %s: %v", h.opts.Dir, err))
		default:
			break errors
		}
	}
	if changes := h.watch.w.Drain(); len(changes) > 0 {
		h.applyChanges(changes)
	}
}

func (w *watcher) close() {
	w.stop()
	_ = w.w.Close()
}
