package zones

import (
	"bytes"
	"fmt"

	"github.com/luahost/luahost/luabind"
	"github.com/luahost/luahost/runtime"
	"github.com/luahost/luahost/snapshot"
)

// zone is one zone of a World: its host and runtime, driven by one
// goroutine at a time, and what it collected during a frame for the
// World to route.
type zone struct {
	// layout is the world's, whose edges may move between frames.
	layout *Layout
	index  int
	host   *luabind.Host
	rt     *runtime.Runtime
	out    bytes.Buffer

	// What a frame collected: the entities leaving for each zone, the
	// parcels sent, the effects its scripts made (zoned rules: sends,
	// kills, broadcasts, blackboard writes...) and the lines they
	// printed.
	leaving [][]runtime.Handle
	// all is the scan's buffer of the zone's handles.
	all     []runtime.Handle
	sent    []parcel
	effects []luabind.Effect
	lines   []line
	// delivery is route's buffer of the effects addressed to the zone.
	delivery []luabind.Effect
	// inbox are the parcels addressed to the zone, imported by receive;
	// bounced those it could not import, with why, for the World to
	// send back (World.returnBounced).
	inbox   []parcel
	bounced []bounce
	// seen is the zone's part of the next view, its entities' committed
	// state after the handoffs.
	seen []luabind.ViewEntity
	err  error
}

// line is one printed line and the identity of the entity that printed
// it.
type line struct {
	from uint64
	text string
}

// parcel is a batch of entities handed off from zone from to zone to.
type parcel struct {
	from, to int
	batch    []snapshot.Entity
}

// bounce is a parcel its zone could not import, and the import's error.
type bounce struct {
	parcel
	err error
}

func newZone(layout *Layout, index, n int) *zone {
	return &zone{layout: layout, index: index, leaving: make([][]runtime.Handle, n)}
}

// join makes h the zone's host, under zoned rules: its scripts' effects
// and printed lines go to the World.
func (z *zone) join(h *luabind.Host) {
	z.host, z.rt = h, h.Runtime()
	h.UseZonedRules()
	h.SetZone(z.index, nil)
	h.OnEffect(func(e luabind.Effect) { z.effects = append(z.effects, e) })
	h.OnPrint(func(from uint64, text string) { z.lines = append(z.lines, line{from, text}) })
}

// scan runs between frames: it exports the Active entities whose
// committed position is outside the zone's strip, one batch for each
// zone they go to. O(entities).
func (z *zone) scan() error {
	for d := range z.leaving {
		z.leaving[d] = z.leaving[d][:0]
	}
	z.all = z.rt.AppendEntities(z.all[:0])
	for _, h := range z.all {
		if st, _ := z.rt.State(h); st != runtime.StateActive {
			continue
		}
		p, _ := z.rt.Get(h, runtime.Position)
		if d := z.layout.Zone(p); d != z.index {
			z.leaving[d] = append(z.leaving[d], h)
		}
	}
	for d, hs := range z.leaving {
		if len(hs) == 0 {
			continue
		}
		batch, err := z.host.ExportAll(hs)
		if err != nil {
			return fmt.Errorf("hand off %d entities to zone %d: %w", len(hs), d, err)
		}
		z.sent = append(z.sent, parcel{from: z.index, to: d, batch: batch})
	}
	return nil
}

// receive runs between frames, after the World routed the frame's
// handoffs: it imports the parcels addressed to the zone and lists its
// entities for the next view. A parcel that does not import (ImportAll
// refuses it whole: a script of it that does not load here, its file
// changed or broken since the sender loaded it) is kept in bounced, for
// the World to send back to its sender; the rest goes on.
func (z *zone) receive() {
	inbox := z.inbox
	z.inbox = nil
	for _, p := range inbox {
		if err := z.take(p); err != nil {
			z.bounced = append(z.bounced, bounce{p, err})
		}
	}
}

// take imports parcel p, all of it or (with an error) nothing: its
// entities keep their world identities.
func (z *zone) take(p parcel) error {
	_, err := z.host.ImportAll(p.batch)
	return err
}
