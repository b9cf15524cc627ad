package zones

import "github.com/luahost/luahost/runtime"

// MaxDeparted is how many departures a zone remembers: the handles of the
// entities that left it, so that their old entity values answer alive()
// and zone() (SPEC 14). Past it, the oldest is forgotten, and its value
// answers as a stale handle does (alive() false). At 60 frames a second
// and 36 handoffs a frame, that is about an hour of departures; it costs
// a few megabytes a zone.
const MaxDeparted = 1 << 17

// departed remembers the latest MaxDeparted handles of entities that
// left a zone, with their world ids. A handle leaves once: its slot's
// next entity has another generation.
type departed[ID any] struct {
	ids  map[runtime.Handle]ID
	ring []runtime.Handle
	next int
}

// add remembers that the entity of h, world id id, left. O(1).
func (d *departed[ID]) add(h runtime.Handle, id ID) {
	if d.ids == nil {
		d.ids = make(map[runtime.Handle]ID)
	}
	if len(d.ring) < MaxDeparted {
		d.ring = append(d.ring, h)
	} else {
		delete(d.ids, d.ring[d.next])
		d.ring[d.next] = h
		d.next = (d.next + 1) % MaxDeparted
	}
	d.ids[h] = id
}

// get returns the world id of the entity of h, which left.
func (d *departed[ID]) get(h runtime.Handle) (ID, bool) {
	id, ok := d.ids[h]
	return id, ok
}
