package zones

import (
	"crypto/sha256"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"

	"github.com/luahost/luahost/luabind"
	"github.com/luahost/luahost/runtime"
	"github.com/luahost/luahost/snapshot"
)

// A world in lockstep across processes. Each process runs one zone of
// the world (a Lockstep) and the zones step frame by frame in step,
// exchanging through a Link what a World exchanges between its zones in
// one process, in two rounds a frame:
//
//  1. after its frame, each zone sends what the frame made: the entities
//     leaving for each other zone, its effects, its printed lines, and
//     whether it asks the world to end after this frame;
//  2. after taking the entities handed to it, each zone sends its
//     entities' committed state (its part of the next view) and the
//     parcels it could not take.
//
// Every zone then holds the same messages: it builds the same view,
// takes the effects on the entities it owns (and every broadcast and
// blackboard write), moves the edges the same way and writes the same
// merged output. So a world in lockstep plays and prints what it plays
// and prints in one process, on any number of zones. The first round is
// JSON (the form of snapshots and handoffs), its cost growing with the
// entities that cross, the effects and the lines; the second, every
// zone's view of the whole world every frame, is binary
// (lockstep_wire.go).

// Link carries the rounds of one zone of a world in lockstep to the
// world's other zones.
type Link interface {
	// Exchange sends msg, this zone's part of the world's next round, to
	// every other zone, and returns every zone's part of that round, by
	// zone number (msg itself at this zone's). Every zone of the world
	// calls Exchange the same number of times, in the same order: the
	// rounds are told apart by their count. An error means the world
	// cannot go on: a zone is gone or does not answer.
	Exchange(msg []byte) ([][]byte, error)
}

// LockstepOptions configures one zone of a world in lockstep.
type LockstepOptions struct {
	// Layout places the world's edges; every zone of the world must give
	// the same (the first round checks it). The default (zero) value is
	// one zone.
	Layout Layout
	// Zone is this zone's number, from 0.
	Zone int
	// Link carries the zone's rounds to the other zones. Required.
	Link Link
	// Stdout receives what the whole world's scripts print, merged as a
	// World merges it: every zone of the world writes the same. The
	// default (nil) value is os.Stdout.
	Stdout io.Writer
	// Balance is how many frames pass between two moves of the edges
	// toward equal work per zone, as for a World; every zone must give
	// the same. The default (zero) value keeps the edges still.
	Balance int
	// Hash asks for the world's hash when the world ends (Lockstep.Hash):
	// the zones then send their entities to one another. It is enough
	// that one zone asks: every zone computes it. The default (false)
	// value computes none unless another zone asks.
	Hash bool
}

// Lockstep is one zone of a world whose zones run in lockstep across
// processes (see the top of this file): its runtime and host, run under
// the zoned rules, and what it knows of the others. Like a World, it is
// driven by one goroutine.
type Lockstep struct {
	layout Layout
	zone   *zone
	link   Link
	stdout io.Writer
	view   *luabind.View
	spare  []luabind.ViewEntity
	bal    balancer
	reader viewReader
	// buf is the second round's buffer.
	buf  []byte
	hash bool
	sum  *[sha256.Size]byte
	// first is set until the first round, which carries the layout;
	// broken once the link failed: no round runs after it; ended once
	// the world ended (Step returned true).
	first, broken, ended, closed bool
}

// stepMsg is a zone's part of a frame's first round.
type stepMsg struct {
	// Layout is the zone's layout, in the first round only.
	Layout *Layout `json:"layout,omitempty"`
	// Last asks the world to end after this frame; Hash asks for its
	// hash then.
	Last bool `json:"last,omitempty"`
	Hash bool `json:"hash,omitempty"`
	// Err is why the zone's frame or its handoffs failed.
	Err     string            `json:"err,omitempty"`
	Parcels []wireParcel      `json:"parcels,omitempty"`
	Effects []snapshot.Effect `json:"effects,omitempty"`
	Lines   []wireLine        `json:"lines,omitempty"`
	Out     []byte            `json:"out,omitempty"`
}

// wireParcel is a parcel on its way between zones; Err, in a viewMsg,
// says why its receiver could not take it.
type wireParcel struct {
	From  int               `json:"from"`
	To    int               `json:"to"`
	Batch []snapshot.Entity `json:"batch"`
	Err   string            `json:"err,omitempty"`
}

// wireLine is a printed line and the identity of the entity that printed
// it; Text is bytes, as a script may print any.
type wireLine struct {
	From uint64 `json:"from"`
	Text []byte `json:"text"`
}

// endMsg is a zone's part of the shutdown's round: what its onDestroy
// callbacks printed.
type endMsg struct {
	Lines []wireLine `json:"lines,omitempty"`
	Out   []byte     `json:"out,omitempty"`
}

// NewLockstep builds zone opts.Zone of a world in lockstep with build
// (as for New, called with opts.Zone), then runs the world's first
// exchange with the other zones, which checks that every zone has the
// same layout and moves every entity to the zone its position is in. It
// returns when every zone of the world did so. A failed build or
// exchange closes the zone and returns the error.
func NewLockstep(opts LockstepOptions, build Build) (*Lockstep, error) {
	if err := opts.Layout.Check(); err != nil {
		return nil, fmt.Errorf("zones: layout: %w", err)
	}
	n := opts.Layout.Zones()
	if opts.Zone < 0 || opts.Zone >= n {
		return nil, fmt.Errorf("zones: zone %d: the world has %d zones (0 to %d)", opts.Zone, n, n-1)
	}
	if opts.Link == nil {
		return nil, errors.New("zones: a lockstep zone needs a Link")
	}
	if opts.Stdout == nil {
		opts.Stdout = os.Stdout
	}
	opts.Layout.Edges = slices.Clone(opts.Layout.Edges)
	l := &Lockstep{layout: opts.Layout, link: opts.Link, stdout: opts.Stdout, bal: newBalancer(opts.Balance), hash: opts.Hash, first: true}
	l.zone = newZone(&l.layout, opts.Zone, n)
	err := build(opts.Zone, &l.zone.out, l.zone.join)
	if err == nil && l.zone.host == nil {
		err = errors.New("the build did not join a host")
	}
	if err != nil {
		if l.zone.host != nil {
			_ = l.zone.host.Close()
		}
		return nil, fmt.Errorf("zone %d: %w", opts.Zone, err)
	}
	l.zone.err = l.zone.scan()
	if _, err := l.exchange(false); err != nil {
		l.broken = true
		_ = l.Close()
		return nil, err
	}
	return l, nil
}

// Host returns the zone's host (and through it, its runtime).
func (l *Lockstep) Host() *luabind.Host { return l.zone.host }

// Layout returns the world's layout, the same in every zone.
func (l *Lockstep) Layout() Layout { return l.layout }

// EdgeMoves returns how many times the edges moved toward equal work
// (LockstepOptions.Balance).
func (l *Lockstep) EdgeMoves() uint64 { return l.bal.moves }

// Step runs one frame of the world: this zone's frame, then the
// exchange with the other zones (see the top of this file). last asks
// the world to end after this frame. Step returns whether the world
// ended: after a frame in which any zone asked for it, or in which a
// zone's frame or handoffs failed (the error says which, the same in
// every zone), or when the link failed (a zone gone: the error says
// so). Once the world ended, Close shuts this zone down with the
// others.
func (l *Lockstep) Step(dt float64, last bool) (bool, error) {
	if l.closed || l.ended {
		return true, runtime.ErrClosed
	}
	z := l.zone
	if z.err = z.rt.Step(dt); z.err == nil {
		z.err = z.scan()
	}
	return l.exchange(last)
}

// exchange runs a frame's two rounds (see the top of this file).
func (l *Lockstep) exchange(last bool) (bool, error) {
	z := l.zone
	mine := stepMsg{Last: last, Hash: l.hash, Lines: wireLines(z.lines), Out: z.out.Bytes()}
	if l.first {
		mine.Layout = &l.layout
	}
	if z.err != nil {
		mine.Err = z.err.Error()
		z.err = nil
	}
	for _, p := range z.sent {
		mine.Parcels = append(mine.Parcels, wireParcel{From: p.from, To: p.to, Batch: p.batch})
	}
	z.sent = z.sent[:0]
	for _, e := range z.effects {
		se, err := saveEffect(e)
		if err != nil {
			return l.fail(fmt.Errorf("zone %d: %w", z.index, err))
		}
		mine.Effects = append(mine.Effects, se)
	}
	steps, err := roundOf[stepMsg](l, mine)
	if err != nil {
		return l.fail(err)
	}
	var errs []error
	end, hash := false, false
	for i, m := range steps {
		if l.first && m.Layout != nil && (m.Layout.Axis != l.layout.Axis || !slices.Equal(m.Layout.Edges, l.layout.Edges)) {
			errs = append(errs, fmt.Errorf("zone %d is cut along %s at %v, not along %s at %v as zone %d: every zone of a world needs the same edges",
				i, AxisName(m.Layout.Axis), m.Layout.Edges, AxisName(l.layout.Axis), l.layout.Edges, z.index))
		}
		if m.Err != "" {
			errs = append(errs, fmt.Errorf("zone %d: %s", i, m.Err))
		}
		end, hash = end || m.Last, hash || m.Hash
		if i == z.index {
			continue
		}
		for _, p := range m.Parcels {
			if p.To == z.index {
				// Its sender is the zone whose part it is.
				z.inbox = append(z.inbox, parcel{from: i, to: p.To, batch: p.Batch})
			}
		}
	}
	l.first = false
	z.receive()
	z.seen = z.host.AppendView(z.seen[:0], z.index)
	var bounced []wireParcel
	for _, b := range z.bounced {
		bounced = append(bounced, wireParcel{From: b.from, To: b.to, Batch: b.batch, Err: b.err.Error()})
	}
	z.bounced = z.bounced[:0]
	part, err := appendView(l.buf[:0], z.seen, bounced)
	if err != nil {
		return l.fail(fmt.Errorf("zone %d: %w", z.index, err))
	}
	l.buf = part
	views, err := l.round(part)
	if err != nil {
		return l.fail(err)
	}
	all := l.spare[:0]
	bounced = bounced[:0]
	for i, v := range views {
		var b []wireParcel
		if all, b, err = l.reader.readView(all, v, i); err != nil {
			return l.fail(fmt.Errorf("zone %d: the view part of zone %d does not read: %w", z.index, i, err))
		}
		bounced = append(bounced, b...)
	}
	errs = append(errs, l.takeBack(bounced)...)
	l.setView(all)
	errs = append(errs, l.route(steps))
	l.bal.balance(&l.layout, l.view)
	outs := make([][]byte, len(steps))
	lines := make([][]line, len(steps))
	for i, m := range steps {
		outs[i], lines[i] = m.Out, readLines(m.Lines)
	}
	errs = append(errs, writeWorld(l.stdout, outs, lines))
	z.out.Reset()
	z.lines = z.lines[:0]
	if errors.Join(errs...) != nil {
		end = true
	}
	if end {
		l.ended = true
		if hash {
			errs = append(errs, l.hashWorld())
		}
	}
	return end, errors.Join(errs...)
}

// fail ends the world after the link failed: no more rounds.
func (l *Lockstep) fail(err error) (bool, error) {
	l.broken, l.ended = true, true
	return true, err
}

// roundOf runs one round of JSON: it sends mine, encoded, and returns
// every zone's part, decoded.
func roundOf[M any](l *Lockstep, mine M) ([]M, error) {
	data, err := json.Marshal(mine)
	if err != nil {
		return nil, fmt.Errorf("zone %d: %w", l.zone.index, err)
	}
	parts, err := l.round(data)
	if err != nil {
		return nil, err
	}
	all := make([]M, len(parts))
	for i, p := range parts {
		if err := json.Unmarshal(p, &all[i]); err != nil {
			return nil, fmt.Errorf("zone %d: a message of zone %d does not read: %w", l.zone.index, i, err)
		}
	}
	return all, nil
}

// round runs one round: it sends mine and returns every zone's part.
func (l *Lockstep) round(mine []byte) ([][]byte, error) {
	parts, err := l.link.Exchange(mine)
	if err != nil {
		return nil, fmt.Errorf("zone %d: %w", l.zone.index, err)
	}
	if len(parts) != l.layout.Zones() {
		return nil, fmt.Errorf("zone %d: the link returned %d parts for a world of %d zones", l.zone.index, len(parts), l.layout.Zones())
	}
	return parts, nil
}

// takeBack takes back the parcels this zone sent that their receivers
// could not take (bounced, every zone's, in zone order), and returns an
// error for every parcel any zone could not take: every zone returns
// the same.
func (l *Lockstep) takeBack(bounced []wireParcel) []error {
	var errs []error
	for _, b := range bounced {
		n := len(b.Batch)
		if b.From == l.zone.index {
			if err := l.zone.take(parcel{from: b.From, to: b.To, batch: b.Batch}); err != nil {
				errs = append(errs, fmt.Errorf("zone %d: take %d entities from zone %d: %s; zone %d could not take them back (%w): they are lost", b.To, n, b.From, b.Err, b.From, err))
				continue
			}
		}
		errs = append(errs, fmt.Errorf("zone %d: take %d entities from zone %d: %s; they went back to zone %d", b.To, n, b.From, b.Err, b.From))
	}
	return errs
}

// setView makes all, every zone's part in zone order (as a World puts
// them), the view of the next frame.
func (l *Lockstep) setView(all []luabind.ViewEntity) {
	if l.view != nil {
		l.spare = l.view.Entities()
	}
	l.view = luabind.NewView(all)
	l.zone.host.SetView(l.view)
}

// route delivers to this zone the effects every zone made in the frame,
// in zone order, that it takes: those on the entities it owns in the
// new view (an effect on an entity that is gone is dropped), and every
// broadcast and blackboard write. Its own effects are its own; the
// others' were decoded into fresh plain data. An effect of another zone
// that does not read (a peer that is not luahost's) is an error, and
// the others are delivered: every zone fails alike, and the world ends.
func (l *Lockstep) route(steps []stepMsg) error {
	z := l.zone
	deliver := z.delivery[:0]
	var errs []error
	for i, m := range steps {
		effs := z.effects
		if i != z.index {
			effs = effs[:0:0]
			for j, se := range m.Effects {
				e, err := loadEffect(se)
				if err != nil {
					errs = append(errs, fmt.Errorf("zone %d: effect %d of zone %d: %w", z.index, j, i, err))
					continue
				}
				effs = append(effs, e)
			}
		}
		for _, e := range effs {
			if e.To != 0 {
				if v := l.view.Get(e.To); v == nil || v.Zone != z.index {
					continue
				}
			}
			deliver = append(deliver, e)
		}
	}
	z.effects = z.effects[:0]
	z.host.Deliver(deliver)
	clear(deliver)
	z.delivery = deliver[:0]
	return errors.Join(errs...)
}

// hashWorld runs the hash's round: every zone sends its snapshot, and
// each computes the world's hash as World.Hash does.
func (l *Lockstep) hashWorld() error {
	// A zone whose snapshot fails sends null: the others wait for its
	// part all the same.
	var mine json.RawMessage = []byte("null")
	s, err := l.zone.host.Snapshot()
	if err == nil {
		var data []byte
		if data, err = s.Marshal(); err == nil {
			mine = data
		}
	}
	parts, lerr := roundOf(l, mine)
	if lerr != nil {
		l.broken = true
		return lerr
	}
	snaps := make([]*snapshot.World, len(parts))
	for i, p := range parts {
		if string(p) == "null" {
			return fmt.Errorf("zone %d: no snapshot for the world's hash", i)
		}
		if snaps[i], err = snapshot.Parse(p); err != nil {
			return fmt.Errorf("zone %d: its snapshot for the world's hash: %w", i, err)
		}
	}
	sum, err := hashOf(snaps)
	if err != nil {
		return err
	}
	l.sum = &sum
	return nil
}

// Hash returns the world's hash (see World.Hash), computed when the world
// ended if any zone asked for it (LockstepOptions.Hash).
func (l *Lockstep) Hash() ([sha256.Size]byte, error) {
	if l.sum == nil {
		return [sha256.Size]byte{}, errors.New("zones: no hash: it is computed when the world ends, if a zone asked for it")
	}
	return *l.sum, nil
}

// Close shuts the zone down: every instance gets its onDestroy. Once the
// world ended (Step returned true), the zones do it together and every
// zone writes what all their onDestroy callbacks printed, merged; before
// that, or after the link failed, the zone writes only its own, and the
// other zones wait for it until their link gives up. Close is
// idempotent.
func (l *Lockstep) Close() error {
	if l.closed {
		return nil
	}
	l.closed = true
	z := l.zone
	err := z.host.Close()
	n := l.layout.Zones()
	outs := make([][]byte, n)
	lines := make([][]line, n)
	if l.broken || !l.ended {
		outs[z.index], lines[z.index] = z.out.Bytes(), z.lines
		return errors.Join(err, writeWorld(l.stdout, outs, lines))
	}
	ends, lerr := roundOf[endMsg](l, endMsg{Lines: wireLines(z.lines), Out: z.out.Bytes()})
	if lerr != nil {
		outs[z.index], lines[z.index] = z.out.Bytes(), z.lines
		return errors.Join(err, lerr, writeWorld(l.stdout, outs, lines))
	}
	for i, m := range ends {
		outs[i], lines[i] = m.Out, readLines(m.Lines)
	}
	return errors.Join(err, writeWorld(l.stdout, outs, lines))
}

func wireLines(ls []line) []wireLine {
	w := make([]wireLine, len(ls))
	for i, l := range ls {
		w[i] = wireLine{From: l.from, Text: []byte(l.text)}
	}
	return w
}

func readLines(ws []wireLine) []line {
	ls := make([]line, len(ws))
	for i, w := range ws {
		ls[i] = line{from: w.From, text: string(w.Text)}
	}
	return ls
}
