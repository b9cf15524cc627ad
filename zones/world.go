package zones

import (
	"bytes"
	"cmp"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
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
	// the lines of every zone in the order of the identities of the
	// entities that printed them (see World). The default (nil) value
	// is os.Stdout.
	Stdout io.Writer
	// Balance is how many frames pass between two moves of the edges
	// toward equal work per zone (balance.go), the first after New; the
	// default (zero) value keeps the edges where Layout puts them.
	Balance int
	// Effects are effects waiting for the first frame: those of a saved
	// world (Effects of what World.Save returned), whose parts the
	// build restored (Part). They are delivered, like a frame's, to the
	// zones that own their targets.
	Effects []luabind.Effect
}

// Build builds zone number zone: a runtime, its host printing to out, and
// the zone's starting entities. It must call join with the host as soon
// as the host exists, before any script loads or entity exists: join
// puts the host under the zoned rules. It gives each starting entity
// its world identity (Host.SetIdentity with luabind.ChildIdentity(0, n)
// for the scene's n-th entity, the same in whichever zone builds it).
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
	// view is the world's committed state that every zone's scripts
	// read during the next frame; spare is the entries of the view
	// before it, which the next view reuses.
	view  *luabind.View
	spare []luabind.ViewEntity
	// pending are the effects the last exchange delivered, each once,
	// for Save.
	pending  []luabind.Effect
	handoffs uint64
	// bal moves the edges every Options.Balance frames.
	bal    balancer
	closed bool
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
	// The edges move: the World has its own.
	opts.Layout.Edges = slices.Clone(opts.Layout.Edges)
	w := &World{layout: opts.Layout, stdout: opts.Stdout, bal: newBalancer(opts.Balance)}
	n := opts.Layout.Zones()
	for i := range n {
		z := newZone(&w.layout, i, n)
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
	w.zones[0].effects = append(w.zones[0].effects, opts.Effects...)
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
// strip, builds the next view, routes the frame's effects and writes
// the zones' output. When Step returns, every entity
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

// exchange ends a frame: the departures the zones collected are routed
// (on this goroutine) and every zone takes what is addressed to it (in
// parallel); then the zones' committed state makes the next view, the
// frame's effects go to the zones that own their targets (every zone,
// for broadcasts and blackboard writes), and the output is written.
func (w *World) exchange() error {
	// What the zones collected is routed even when one of them failed:
	// the entities another zone exported are on their way already.
	err := w.firstErr()
	for _, z := range w.zones {
		for _, p := range z.sent {
			w.handoffs += uint64(len(p.batch))
			w.zones[p.to].inbox = append(w.zones[p.to].inbox, p)
		}
		z.sent = z.sent[:0]
	}
	w.parallel(func(z *zone) { z.receive() })
	err = errors.Join(err, w.returnBounced())
	w.parallel(func(z *zone) { z.seen = z.host.AppendView(z.seen[:0], z.index) })
	// No zone reads the view before this one any more: its entries make
	// the next.
	all := w.spare[:0]
	for _, z := range w.zones {
		all = append(all, z.seen...)
	}
	if w.view != nil {
		w.spare = w.view.Entities()
	}
	w.view = luabind.NewView(all)
	for _, z := range w.zones {
		z.host.SetView(w.view)
	}
	w.route()
	w.bal.balance(&w.layout, w.view)
	return errors.Join(err, w.writeOut())
}

// route delivers the frame's effects: each to the zone that owns its
// target in the new view (an effect on an entity that is gone is
// dropped), broadcasts and blackboard writes to every zone, each zone
// but the sender's with its own copy of the data. It keeps what it
// delivered in w.pending.
func (w *World) route() {
	clear(w.pending)
	w.pending = w.pending[:0]
	for _, z := range w.zones {
		for _, e := range z.effects {
			if e.To != 0 {
				if v := w.view.Get(e.To); v != nil {
					d := w.zones[v.Zone]
					d.delivery = append(d.delivery, e)
					w.pending = append(w.pending, e)
				}
				continue
			}
			w.pending = append(w.pending, e)
			for _, d := range w.zones {
				c := e
				if d != z {
					// e.Data is plain data already: copying it cannot fail.
					c.Data, _ = runtime.Plain(e.Data)
				}
				d.delivery = append(d.delivery, c)
			}
		}
		z.effects = z.effects[:0]
	}
	for _, z := range w.zones {
		z.host.Deliver(z.delivery)
		clear(z.delivery)
		z.delivery = z.delivery[:0]
	}
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
			n := len(b.batch)
			w.handoffs -= uint64(n)
			if err := back.take(b.parcel); err != nil {
				errs = append(errs, fmt.Errorf("zone %d: take %d entities from zone %d: %w; zone %d could not take them back (%w): they are lost", z.index, n, b.from, b.err, b.from, err))
				continue
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

// writeOut writes what the zones' scripts printed (writeWorld) and
// empties their buffers.
func (w *World) writeOut() error {
	outs := make([][]byte, len(w.zones))
	lines := make([][]line, len(w.zones))
	for i, z := range w.zones {
		outs[i], lines[i] = z.out.Bytes(), z.lines
	}
	err := writeWorld(w.stdout, outs, lines)
	for _, z := range w.zones {
		z.out.Reset()
		z.lines = z.lines[:0]
	}
	return err
}

// writeWorld writes to out what a world's zones printed in a frame (or
// in the shutdown): first what each zone's host wrote to its output,
// zone after zone (outs, by zone), then the lines its scripts printed
// (lines, by zone), merged in the order of the identities of the
// entities that printed them, each entity's in the order it printed
// them, so that the output does not depend on the number of zones.
// Lines printed outside any entity's callback (a script's chunk, which
// every zone runs) are kept from zone 0 only, first.
func writeWorld(out io.Writer, outs [][]byte, lines [][]line) error {
	var errs []error
	for _, o := range outs {
		if len(o) > 0 {
			_, err := out.Write(o)
			errs = append(errs, err)
		}
	}
	var all []line
	for i, ls := range lines {
		for _, l := range ls {
			if l.from != 0 || i == 0 {
				all = append(all, l)
			}
		}
	}
	if len(all) == 0 {
		return errors.Join(errs...)
	}
	slices.SortStableFunc(all, func(a, b line) int { return cmp.Compare(a.from, b.from) })
	var b bytes.Buffer
	for _, l := range all {
		b.WriteString(l.text)
		b.WriteByte('\n')
	}
	_, err := out.Write(b.Bytes())
	return errors.Join(append(errs, err)...)
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
