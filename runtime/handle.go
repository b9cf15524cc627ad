package runtime

import "fmt"

// Handle names an entity: a slot index and the slot's generation. Handles
// are values; compare them with ==. A handle outlives its entity harmlessly:
// once the entity is reaped, the slot's generation moves on and every lookup
// with the old handle fails with ErrStaleHandle, even after the slot is
// reused. The zero Handle is never valid.
type Handle struct {
	Index uint32
	Gen   uint32
}

// String returns "entity(INDEX:GEN)".
func (h Handle) String() string { return fmt.Sprintf("entity(%d:%d)", h.Index, h.Gen) }

// IsZero reports whether h is the zero Handle.
func (h Handle) IsZero() bool { return h == Handle{} }

// slot is one entry of the slot map.
type slot struct {
	gen   uint32
	state State
	// dense is the slot's position in slotMap.dense while it is in use.
	dense int
	ent   *entity
}

// slotMap stores entities by handle. Slot 0 is reserved so that the zero
// Handle never names an entity. Freed slots go on a free list (reused last
// in, first out) with their generation bumped. dense lists the handles in
// use, packed by swap-remove, for iteration and counting.
type slotMap struct {
	slots []slot
	free  []uint32
	dense []Handle
}

func newSlotMap() slotMap {
	return slotMap{slots: make([]slot, 1)}
}

// alloc takes a free slot (or grows the map) and returns its handle. O(1)
// amortised.
func (m *slotMap) alloc(ent *entity) Handle {
	var idx uint32
	if n := len(m.free); n > 0 {
		idx = m.free[n-1]
		m.free = m.free[:n-1]
	} else {
		idx = uint32(len(m.slots))
		m.slots = append(m.slots, slot{gen: 1})
	}
	s := &m.slots[idx]
	s.ent = ent
	s.dense = len(m.dense)
	h := Handle{Index: idx, Gen: s.gen}
	m.dense = append(m.dense, h)
	return h
}

// get returns the slot of h, or ErrStaleHandle. It never returns a slot
// whose generation differs from h's. O(1).
func (m *slotMap) get(h Handle) (*slot, error) {
	if h.Index == 0 || int(h.Index) >= len(m.slots) {
		return nil, fmt.Errorf("%w %s", ErrStaleHandle, h)
	}
	s := &m.slots[h.Index]
	if s.gen != h.Gen || s.state == StateNone {
		return nil, fmt.Errorf("%w %s", ErrStaleHandle, h)
	}
	return s, nil
}

// release frees h's slot: swap-removes it from dense, bumps the generation
// (skipping 0 on wrap-around) and pushes the slot on the free list. O(1).
func (m *slotMap) release(h Handle) {
	s := &m.slots[h.Index]
	last := len(m.dense) - 1
	moved := m.dense[last]
	m.dense[s.dense] = moved
	m.slots[moved.Index].dense = s.dense
	m.dense = m.dense[:last]
	s.ent = nil
	s.state = StateNone
	s.dense = -1
	s.gen++
	if s.gen == 0 {
		s.gen = 1
	}
	m.free = append(m.free, h.Index)
}
