// Package departed remembers the entities that left a zone, so that their
// old entity values can still say where they went.
package departed

import "github.com/luahost/luahost/runtime"

// Max is how many departures a zone remembers: the handles of the
// entities that left it, so that their old entity values answer alive()
// and zone(). Past it, the oldest is forgotten, and its value answers as a
// stale handle does (alive() false). At 60 frames a second and 36 handoffs
// a frame, that is about an hour of departures; it costs a few megabytes a
// zone.
const Max = 1 << 17

// List remembers the latest Max handles of entities that left a zone,
// with their world ids. A handle leaves once: its slot's next entity has
// another generation. The zero value is an empty list. Not safe for
// concurrent use.
type List[ID any] struct {
	ids  map[runtime.Handle]ID
	ring []runtime.Handle
	next int
}

// Add remembers that the entity of h, world id id, left. O(1).
func (d *List[ID]) Add(h runtime.Handle, id ID) {
	if d.ids == nil {
		d.ids = make(map[runtime.Handle]ID)
	}
	if len(d.ring) < Max {
		d.ring = append(d.ring, h)
	} else {
		delete(d.ids, d.ring[d.next])
		d.ring[d.next] = h
		d.next = (d.next + 1) % Max
	}
	d.ids[h] = id
}

// Get returns the world id of the entity of h, which left.
func (d *List[ID]) Get(h runtime.Handle) (ID, bool) {
	id, ok := d.ids[h]
	return id, ok
}
