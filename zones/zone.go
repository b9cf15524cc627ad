package zones

import (
	"bytes"
	"fmt"

	"github.com/luahost/luahost/luabind"
	"github.com/luahost/luahost/runtime"
	"github.com/luahost/luahost/snapshot"
	"github.com/luahost/luahost/zones/internal/departed"
)

// MaxDeparted is how many departures a zone remembers, so that the old
// entity values of the entities that left it answer alive() and zone().
// Past it, the oldest is forgotten, and its value answers as a stale
// handle does (alive() false).
const MaxDeparted = departed.Max

// zone is one zone of a World: its host and runtime, driven by one
// goroutine at a time, and what it collected during a frame for the
// World to route.
type zone struct {
	w     *World
	index int
	host  *luabind.Host
	rt    *runtime.Runtime
	out   bytes.Buffer

	// ids gives every entity of the zone its world id, by slot index
	// (handles are per runtime, world ids survive handoffs).
	ids []slotID
	// epoch counts scans; an entity seen by the last scan has it.
	epoch uint64
	// moved remembers the handles of the entities that left the zone,
	// with their world ids.
	moved departed.List[uint64]

	// What a frame collected: the entities leaving for each zone, the
	// parcels sent, the ids of entities that died, blackboard writes (by
	// key, the last one) and broadcasts.
	leaving [][]runtime.Handle
	// all is the scan's buffer of the zone's handles.
	all     []runtime.Handle
	sent    []parcel
	died    []uint64
	writes  []write
	written map[string]int
	casts   []cast
	// inbox are the parcels addressed to the zone, imported by receive;
	// bounced those it could not import, with why, for the World to
	// send back (World.returnBounced).
	inbox   []parcel
	bounced []bounce
	// applying is set while receive applies other zones' writes, which
	// are not published again.
	applying bool
	err      error
}

// slotID is the world id of the entity in one slot and the generation
// of its handle.
type slotID struct {
	gen  uint32
	id   uint64
	seen uint64
}

// parcel is a batch of entities handed off from zone from to zone to,
// with their world ids in the batch's order.
type parcel struct {
	from, to int
	ids      []uint64
	batch    []snapshot.Entity
}

// bounce is a parcel its zone could not import, and the import's error.
type bounce struct {
	parcel
	err error
}

// write is one blackboard write of a frame: the key, a copy of the value
// (nil: deleted) and the zone that wrote it.
type write struct {
	key   string
	value any
	from  int
}

// cast is one ctx.broadcast of a frame and the zone that sent it.
type cast struct {
	event string
	data  any
	from  int
}

func newZone(w *World, index, n int) *zone {
	return &zone{w: w, index: index, leaving: make([][]runtime.Handle, n),
		written: make(map[string]int)}
}

// join makes h the zone's host: its entity values learn where moved
// entities went, its broadcasts and blackboard writes go to the World.
func (z *zone) join(h *luabind.Host) {
	z.host, z.rt = h, h.Runtime()
	h.UseZonedRules()
	h.SetZone(z.index, z.elsewhere)
	h.OnBroadcast(func(event string, data any) { z.casts = append(z.casts, cast{event, data, z.index}) })
	z.rt.Blackboard().OnSet(z.record)
}

// record keeps a copy of a blackboard write for the other zones, unless
// it is one of theirs being applied.
func (z *zone) record(key string, v any) {
	if z.applying {
		return
	}
	// v is plain data already: copying it cannot fail.
	c, _ := runtime.Plain(v)
	if i, ok := z.written[key]; ok {
		z.writes[i].value = c
		return
	}
	z.written[key] = len(z.writes)
	z.writes = append(z.writes, write{key, c, z.index})
}

// elsewhere answers, for a handle no longer alive here, the zone its
// entity lives in now.
func (z *zone) elsewhere(h runtime.Handle) (int, bool) {
	id, ok := z.moved.Get(h)
	if !ok {
		return 0, false
	}
	to, ok := z.w.where[id]
	return to, ok
}

// slot returns the world id record of h's slot for h: an older entity
// the slot held has died, and a new entity's id is 0.
func (z *zone) slot(h runtime.Handle) *slotID {
	if int(h.Index) >= len(z.ids) {
		z.ids = append(z.ids, make([]slotID, int(h.Index)+1-len(z.ids))...)
	}
	s := &z.ids[h.Index]
	if s.id != 0 && s.gen != h.Gen {
		z.died = append(z.died, s.id)
		s.id = 0
	}
	s.gen = h.Gen
	return s
}

// own returns the world id record of h, taking the host's world
// identity of an entity the zone has not seen.
func (z *zone) own(h runtime.Handle) *slotID {
	s := z.slot(h)
	if s.id == 0 {
		s.id = z.host.Identity(h)
	}
	return s
}

// scan runs between frames: it gives new entities their world ids, notes
// the entities that died, and exports the Active entities whose
// committed position is outside the zone's strip, one batch for each
// zone they go to. O(entities).
func (z *zone) scan() error {
	z.epoch++
	for d := range z.leaving {
		z.leaving[d] = z.leaving[d][:0]
	}
	z.all = z.rt.AppendEntities(z.all[:0])
	for _, h := range z.all {
		z.own(h).seen = z.epoch
		if st, _ := z.rt.State(h); st != runtime.StateActive {
			continue
		}
		p, _ := z.rt.Get(h, runtime.Position)
		if d := z.w.layout.Zone(p); d != z.index {
			z.leaving[d] = append(z.leaving[d], h)
		}
	}
	for i := range z.ids {
		if s := &z.ids[i]; s.id != 0 && s.seen != z.epoch {
			z.died = append(z.died, s.id)
			*s = slotID{}
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
		ids := make([]uint64, len(hs))
		for i, h := range hs {
			id := z.ids[h.Index].id
			ids[i] = id
			z.moved.Add(h, id)
			z.ids[h.Index] = slotID{}
		}
		z.sent = append(z.sent, parcel{from: z.index, to: d, ids: ids, batch: batch})
	}
	return nil
}

// receive runs between frames, after the World routed the frame: it
// imports the parcels addressed to the zone, applies every zone's
// blackboard writes in zone order, and queues every broadcast for the
// start of the next frame. A parcel that does not import (ImportAll
// refuses it whole: a script of it that does not load here, its file
// changed or broken since the sender loaded it) is kept in bounced, for
// the World to send back to its sender; the rest goes on.
func (z *zone) receive(writes []write, casts []cast) {
	inbox := z.inbox
	z.inbox = nil
	for _, p := range inbox {
		if err := z.take(p); err != nil {
			z.bounced = append(z.bounced, bounce{p, err})
		}
	}
	z.applying = true
	bb := z.rt.Blackboard()
	for _, wr := range writes {
		bb.SetPlain(wr.key, z.copyFrom(wr.from, wr.value))
	}
	z.applying = false
	for _, c := range casts {
		z.host.Broadcast(c.event, z.copyFrom(c.from, c.data))
	}
}

// take imports parcel p, all of it or (with an error) nothing, and gives
// its entities their world ids.
func (z *zone) take(p parcel) error {
	hs, err := z.host.ImportAll(p.batch)
	if err != nil {
		return err
	}
	for i, h := range hs {
		s := z.slot(h)
		s.id, s.seen = p.ids[i], z.epoch
	}
	return nil
}

// copyFrom returns the zone's own copy of plain data v that zone from
// wrote: entity handles, which name entities of the writer's runtime
// only, become their string ids in every other zone ("entity(3:1)"), as
// entity values do in a handoff. A handle key whose string id
// is already a key of its table is dropped.
func (z *zone) copyFrom(from int, v any) any {
	if from == z.index {
		// v is plain data already: copying it cannot fail.
		c, _ := runtime.Plain(v)
		return c
	}
	switch x := v.(type) {
	case runtime.Handle:
		return x.String()
	case *runtime.Table:
		t := &runtime.Table{Fields: make([]runtime.Field, 0, len(x.Fields))}
		var keys map[any]bool
		for _, f := range x.Fields {
			k := f.Key
			if h, ok := k.(runtime.Handle); ok {
				if keys == nil {
					keys = make(map[any]bool, len(x.Fields))
					for _, g := range x.Fields {
						keys[g.Key] = true
					}
				}
				if k = h.String(); keys[k] {
					continue
				}
			}
			t.Fields = append(t.Fields, runtime.Field{Key: k, Value: z.copyFrom(from, f.Value)})
		}
		return t
	}
	return v
}
