package zones

import (
	"errors"
	"fmt"
	"io"
	"os"
	"sync"

	"github.com/luahost/luahost/luabind"
	"github.com/luahost/luahost/runtime"
)

// Options configures a World.
type Options struct {
	// Layout places the zones' edges; its Zones() is the number of zones.
	// The default (zero) value is one zone.
	Layout Layout
	// Stdout receives what the zones' scripts print: after every frame,
	// each zone's output in zone order. The default (nil) value is
	// os.Stdout.
	Stdout io.Writer
}

// Build builds zone number zone: a runtime, its host printing to out, and
// the zone's starting entities. It must call join with the host as soon
// as the host exists, before the entities' scripts run, so that what
// their setup writes to the blackboard or broadcasts reaches every zone.
// Entities may start anywhere: before the first frame, each one moves to
// the zone whose strip holds its position.
type Build func(zone int, out io.Writer, join func(*luabind.Host)) error

// World is one world over the zones of a Layout, stepped in lockstep, one
// goroutine a zone (see the package documentation). Like a Runtime, a
// World is driven by one goroutine: its methods are not safe for
// concurrent use. The zones' runtimes and hosts belong to the World: use
// them only between its calls, never while Step runs.
type World struct {
	layout Layout
	zones  []*zone
	stdout io.Writer
	// where maps the world id of every entity that left a zone to the
	// zone that holds it now. It changes only between the parallel
	// phases of a Step, on the World's goroutine; zones read it during
	// them.
	where    map[uint64]int
	handoffs uint64
	closed   bool
}

// New builds the zones of opts.Layout with build, one after the other,
// then moves every entity to the zone its position is in. A failed build
// closes the zones built so far and returns the error.
func New(opts Options, build Build) (*World, error) {
	if err := opts.Layout.Check(); err != nil {
		return nil, fmt.Errorf("zones: layout: %w", err)
	}
	if opts.Stdout == nil {
		opts.Stdout = os.Stdout
	}
	w := &World{layout: opts.Layout, stdout: opts.Stdout, where: make(map[uint64]int)}
	n := opts.Layout.Zones()
	for i := range n {
		z := newZone(w, i, n)
		w.zones = append(w.zones, z)
		err := build(i, &z.out, z.join)
		if err == nil && z.host == nil {
			err = errors.New("the build did not join a host")
		}
		if err != nil {
			_ = w.Close()
			return nil, fmt.Errorf("zone %d: %w", i, err)
		}
	}
	w.parallel(func(z *zone) { z.err = z.scan() })
	if err := w.exchange(); err != nil {
		_ = w.Close()
		return nil, err
	}
	return w, nil
}

// Zones returns the number of zones.
func (w *World) Zones() int { return len(w.zones) }

// Host returns zone i's host (and through it, its runtime).
func (w *World) Host(i int) *luabind.Host { return w.zones[i].host }

// Handoffs returns how many times an entity was handed off from one zone
// to another so far.
func (w *World) Handoffs() uint64 { return w.handoffs }

// Layout returns the world's layout.
func (w *World) Layout() Layout { return w.layout }

// Step runs one frame of every zone, each on its own goroutine, then
// hands off the entities whose committed position left their zone's
// strip and exchanges the frame's broadcasts and blackboard writes, and
// writes the zones' output in zone order. When Step returns, every entity
// is in exactly one zone. It fails when a zone's Step fails (a bad dt)
// or a handoff fails (an entity with a Go-native script instance cannot
// leave its zone: it stays there; a zone cannot import what another
// handed off, a script of it not loading there: the entities go back to
// the zone that sent them and carry on there); the error names the
// zones, and what the other zones handed off still arrives.
func (w *World) Step(dt float64) error {
	if w.closed {
		return runtime.ErrClosed
	}
	w.parallel(func(z *zone) {
		if z.err = z.rt.Step(dt); z.err == nil {
			z.err = z.scan()
		}
	})
	return w.exchange()
}

// exchange ends a frame: the departures, deaths, blackboard writes and
// broadcasts the zones collected are routed (on this goroutine), then
// every zone takes what is addressed to it (in parallel), and the output
// is written.
func (w *World) exchange() error {
	// What the zones collected is routed even when one of them failed:
	// the entities another zone exported are on their way already.
	err := w.firstErr()
	var writes []write
	var casts []cast
	for _, z := range w.zones {
		for _, id := range z.died {
			// Its old handles now answer as stale ones.
			delete(w.where, id)
		}
		z.died = z.died[:0]
		for _, p := range z.sent {
			for _, id := range p.ids {
				w.where[id] = p.to
			}
			w.handoffs += uint64(len(p.ids))
			w.zones[p.to].inbox = append(w.zones[p.to].inbox, p)
		}
		z.sent = z.sent[:0]
		writes = append(writes, z.writes...)
		z.writes, z.written = z.writes[:0], clearMap(z.written)
		casts = append(casts, z.casts...)
		z.casts = z.casts[:0]
	}
	w.parallel(func(z *zone) { z.receive(writes, casts) })
	return errors.Join(err, w.returnBounced(), w.writeOut())
}

// returnBounced sends every parcel a zone could not import back to the
// zone that sent it, which still runs its scripts: its entities carry on
// there, outside its strip, and are handed off again after the next
// frame. It returns an error naming each bounce; nothing is lost unless
// the sender cannot take its own entities back either (its host closed),
// which the error says too.
func (w *World) returnBounced() error {
	var errs []error
	for _, z := range w.zones {
		for _, b := range z.bounced {
			back := w.zones[b.from]
			n := len(b.ids)
			w.handoffs -= uint64(n)
			if err := back.take(b.parcel); err != nil {
				for _, id := range b.ids {
					delete(w.where, id)
				}
				errs = append(errs, fmt.Errorf("zone %d: take %d entities from zone %d: %w; zone %d could not take them back (%w): they are lost", z.index, n, b.from, b.err, b.from, err))
				continue
			}
			for _, id := range b.ids {
				w.where[id] = b.from
			}
			errs = append(errs, fmt.Errorf("zone %d: take %d entities from zone %d: %w; they went back to zone %d", z.index, n, b.from, b.err, b.from))
		}
		z.bounced = z.bounced[:0]
	}
	return errors.Join(errs...)
}

// parallel runs fn for every zone, each on its own goroutine, and
// returns when all are done.
func (w *World) parallel(fn func(z *zone)) {
	if len(w.zones) == 1 {
		fn(w.zones[0])
		return
	}
	var wg sync.WaitGroup
	for _, z := range w.zones {
		wg.Go(func() { fn(z) })
	}
	wg.Wait()
}

// firstErr returns the zones' errors, each named by its zone, and clears
// them.
func (w *World) firstErr() error {
	var errs []error
	for _, z := range w.zones {
		if z.err != nil {
			errs = append(errs, fmt.Errorf("zone %d: %w", z.index, z.err))
			z.err = nil
		}
	}
	return errors.Join(errs...)
}

// writeOut writes what the zones printed, zone after zone.
func (w *World) writeOut() error {
	var errs []error
	for _, z := range w.zones {
		if z.out.Len() > 0 {
			_, err := w.stdout.Write(z.out.Bytes())
			errs = append(errs, err)
			z.out.Reset()
		}
	}
	return errors.Join(errs...)
}

// Close closes every zone in zone order (every instance gets its
// onDestroy) and writes out what they printed. Close is idempotent.
func (w *World) Close() error {
	if w.closed {
		return nil
	}
	w.closed = true
	var errs []error
	for _, z := range w.zones {
		if z.host != nil {
			errs = append(errs, z.host.Close())
		}
	}
	errs = append(errs, w.writeOut())
	return errors.Join(errs...)
}

func clearMap[K comparable, V any](m map[K]V) map[K]V {
	clear(m)
	return m
}
