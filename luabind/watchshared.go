package luabind

import (
	"context"
	"fmt"

	"github.com/luahost/luahost/luabind/internal/watch"
)

// SharedWatch is hot reload for several hosts that run the scripts of
// one folder, the zones of a zoned world: one watcher of the folder, whose
// changes the goroutine that drives the hosts takes between frames
// (Take) and applies to every host (ApplyChanges), so that every host
// reloads at the same frame boundary. A host's own Watch would apply
// them at the start of its own next Step, whenever its watcher saw them.
type SharedWatch struct {
	dir string
	w   *watch.Watcher
}

// Changes are the script files a SharedWatch saw change, for
// ApplyChanges.
type Changes struct{ list []watch.Change }

// Len returns the number of files changed.
func (c Changes) Len() int { return len(c.list) }

// WatchShared starts watching dir, recursively, until ctx is done or
// Close is called.
func WatchShared(ctx context.Context, dir string) (*SharedWatch, error) {
	w, err := watch.New(watch.Options{Dir: dir, MaxSize: MaxScriptSize})
	if err != nil {
		return nil, fmt.Errorf("watch %s: %w", dir, err)
	}
	go func() {
		<-ctx.Done()
		_ = w.Close()
	}()
	return &SharedWatch{dir: dir, w: w}, nil
}

// Ready is signalled when Take has changes.
func (s *SharedWatch) Ready() <-chan struct{} { return s.w.Ready() }

// Take returns the changes settled since the last Take, and what went
// wrong watching since (each error names the folder).
func (s *SharedWatch) Take() (Changes, []error) {
	var errs []error
	for {
		select {
		case err := <-s.w.Errors():
			errs = append(errs, fmt.Errorf("watching %s: %w", s.dir, err))
			continue
		default:
		}
		return Changes{s.w.Drain()}, errs
	}
}

// Close stops watching.
func (s *SharedWatch) Close() error { return s.w.Close() }

// ApplyChanges reloads, between frames, the host's scripts that c
// changed (or whose modules it changed), as its own Watch does: a
// refused reload is reported, a script that waits for a fix is tried
// again. A script the host has not loaded is left alone.
func (h *Host) ApplyChanges(c Changes) {
	if len(c.list) > 0 {
		h.applyChanges(c.list)
	}
}
