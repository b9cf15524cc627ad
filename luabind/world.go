package luabind

import (
	"encoding/base64"
	"errors"
	"fmt"
	"math/rand/v2"

	"github.com/luahost/luahost/luabind/internal/lualib"
	"github.com/luahost/luahost/runtime"
	"github.com/luahost/luahost/snapshot"
)

// Zoned rules. A host that is one zone of a zoned world runs its
// scripts under rules that make the number of zones invisible to them
// (UseZonedRules): every entity has a world-wide identity, the same in
// every zone and across handoffs, and math.random, in a callback of an
// entity's instance, draws from that entity's own stream, seeded from
// the runtime's seed and the identity. A stream is saved with its
// entity (snapshot.Entity.World), so it goes on where it stopped after
// a handoff and after a save and restore.

// worldEntity is what a host under zoned rules keeps of one entity.
type worldEntity struct {
	id      uint64
	src     rand.PCG
	r       *rand.Rand
	spawned uint64
	// timers is the id of the last timer the entity's scripts made:
	// under zoned rules timer ids count per entity, not per host.
	timers int64
}

// worldRules is a host's zoned rules (UseZonedRules): the entities'
// identities and streams, by handle index, and the handles by identity.
type worldRules struct {
	on    bool
	slots []worldSlot
	byID  map[uint64]runtime.Handle
	// made counts the identities made for entities no script of an
	// entity spawned (ChildIdentity(0, made)).
	made uint64
}

// worldSlot is what a host keeps of the entity in one slot of its
// runtime, of the handle generation gen.
type worldSlot struct {
	gen uint32
	we  *worldEntity
}

// get returns what the host keeps of entity e, or nil. A world handle's
// index is past every slot.
func (w *worldRules) get(e runtime.Handle) *worldEntity {
	if int(e.Index) < len(w.slots) && w.slots[e.Index].gen == e.Gen {
		return w.slots[e.Index].we
	}
	return nil
}

// ErrIdentity is the error of SetIdentity given an identity of 0, or one
// another entity of the host has.
var ErrIdentity = errors.New("bad world identity")

// UseZonedRules puts the host under the rules of a zoned world (see
// docs/zones.md): zones set it on every zone's host, so that a world
// runs by the same rules on one zone as on many. Call it before the
// first entity exists.
func (h *Host) UseZonedRules() {
	if h.world.on {
		return
	}
	h.world = worldRules{on: true, byID: make(map[uint64]runtime.Handle)}
}

// Zoned reports whether the host runs under zoned rules.
func (h *Host) Zoned() bool { return h.world.on }

// ChildIdentity returns the identity of the n-th entity (from 1) that
// the entity of identity parent spawned; parent 0 stands for the world
// itself, whose n-th entity is, for instance, the scene's n-th. It is
// never 0, below 2^63, and the same parent and n give the same identity on every
// zone.
func ChildIdentity(parent, n uint64) uint64 {
	x := parent*0x9e3779b97f4a7c15 + n
	x ^= x >> 30
	x *= 0xbf58476d1ce4e5b9
	x ^= x >> 27
	x *= 0x94d049bb133111eb
	x ^= x >> 31
	// Below 2^63, so that a world handle holds it (WorldHandle).
	x >>= 1
	if x == 0 {
		return 1
	}
	return x
}

// SetIdentity gives entity e, alive in this host's runtime, the world
// identity id, and a fresh random stream for it. An entity spawned by
// Go code has one made on first use, which depends on the order of
// such spawns in each zone: give the scene's entities theirs with
// ChildIdentity(0, index+1). It does nothing unless the host runs under
// zoned rules.
func (h *Host) SetIdentity(e runtime.Handle, id uint64) error {
	if !h.world.on {
		return nil
	}
	if !h.rt.Alive(e) {
		return fmt.Errorf("set identity: %w %s", runtime.ErrStaleHandle, e)
	}
	if o, ok := h.world.byID[id]; id == 0 || ok && o != e {
		return fmt.Errorf("set identity of %s: %w: %d", e, ErrIdentity, id)
	}
	h.world.set(e, id, h.rt.Seed())
	return nil
}

// Identity returns the world identity of entity e, alive in this host's
// runtime, or 0 when it is not alive or the host runs under no zoned
// rules.
func (h *Host) Identity(e runtime.Handle) uint64 {
	if we := h.worldEntity(e); we != nil {
		return we.id
	}
	return 0
}

// ByIdentity returns the handle, in this host's runtime, of the entity
// of world identity id.
func (h *Host) ByIdentity(id uint64) (runtime.Handle, bool) {
	e, ok := h.world.byID[id]
	if ok && !h.rt.Alive(e) {
		return runtime.Handle{}, false
	}
	return e, ok
}

// worldEntity returns what the host keeps of entity e, making its
// identity when it has none yet; nil under no zoned rules or for an
// entity that is not alive.
func (h *Host) worldEntity(e runtime.Handle) *worldEntity {
	if !h.world.on {
		return nil
	}
	if we := h.world.get(e); we != nil {
		return we
	}
	if !h.rt.Alive(e) {
		return nil
	}
	h.world.made++
	we := h.world.set(e, ChildIdentity(0, h.world.made), h.rt.Seed())
	// An entity restored or imported without its world part keeps its
	// timers: new ones are numbered past them.
	insts, _ := h.rt.Instances(e)
	for _, inst := range insts {
		if li, ok := inst.Data.(*instance); ok {
			for _, t := range li.pending() {
				we.timers = max(we.timers, t.ID)
			}
		}
	}
	return we
}

// set records entity e under identity id with a fresh stream, in place
// of what its slot held.
func (w *worldRules) set(e runtime.Handle, id uint64, seed int64) *worldEntity {
	if n := int(e.Index) + 1; n > len(w.slots) {
		w.slots = append(w.slots, make([]worldSlot, n-len(w.slots))...)
	}
	w.forget(e.Index)
	we := &worldEntity{id: id}
	we.src.Seed(uint64(seed), id)
	we.r = rand.New(&we.src)
	w.slots[e.Index] = worldSlot{e.Gen, we}
	w.byID[id] = e
	return we
}

// forget drops what slot i holds.
func (w *worldRules) forget(i uint32) {
	s := w.slots[i]
	if s.we != nil && w.byID[s.we.id] == (runtime.Handle{Index: i, Gen: s.gen}) {
		delete(w.byID, s.we.id)
	}
	w.slots[i] = worldSlot{}
}

// spawned gives entity e, just spawned by a script, its identity: the
// next child of the entity whose callback runs (cur), or of the world.
func (h *Host) spawned(cur *runtime.Instance, e runtime.Handle) {
	if !h.world.on {
		return
	}
	var parent uint64
	var n *uint64 = &h.world.made
	if cur != nil {
		if we := h.worldEntity(cur.Entity()); we != nil {
			parent, n = we.id, &we.spawned
		}
	}
	*n++
	h.world.set(e, ChildIdentity(parent, *n), h.rt.Seed())
}

// forget drops what the host keeps of the entities that are no longer
// alive in its runtime (dead, or handed off). O(entities kept).
func (h *Host) forgetGone() {
	for i, s := range h.world.slots {
		if s.we != nil && !h.rt.Alive(runtime.Handle{Index: uint32(i), Gen: s.gen}) {
			h.world.forget(uint32(i))
		}
	}
}

// random returns the generator math.random draws from in st: the
// current entity's stream under zoned rules, else the state's own.
func (st *state) random() *rand.Rand {
	if st.cur != nil {
		if we := st.host.worldEntity(st.cur.Entity()); we != nil {
			return we.r
		}
	}
	return st.rand
}

// reseed is math.randomseed(x) in st: the current entity's stream under
// zoned rules is seeded again from the seed^x and its identity; else the
// state's own, as lualib seeds it.
func (st *state) reseed(x int64) {
	seed := st.host.rt.Seed()
	if st.cur != nil {
		if we := st.host.worldEntity(st.cur.Entity()); we != nil {
			we.src.Seed(uint64(seed^x), we.id)
			return
		}
	}
	st.rng.Seed(uint64(seed^x), lualib.NameHash(st.script.name))
}

// saveWorld returns what a snapshot keeps of entity e under zoned rules,
// or nil.
func (h *Host) saveWorld(e runtime.Handle) (*snapshot.WorldEntity, error) {
	we := h.worldEntity(e)
	if we == nil {
		return nil, nil
	}
	b, err := we.src.MarshalBinary()
	if err != nil {
		return nil, fmt.Errorf("save %s: random stream: %w", e, err)
	}
	return &snapshot.WorldEntity{ID: we.id, Random: base64.StdEncoding.EncodeToString(b), Spawned: we.spawned, Timers: we.timers}, nil
}

// checkWorld checks an entity snapshot's world part.
func checkWorld(w *snapshot.WorldEntity) error {
	if w == nil {
		return nil
	}
	if w.ID == 0 || w.ID >= 1<<63 {
		return fmt.Errorf("%w: world.id must be above 0 and below 2^63", runtime.ErrBadSnapshot)
	}
	if w.Timers < 0 {
		return fmt.Errorf("%w: world.timers must not be below 0", runtime.ErrBadSnapshot)
	}
	b, err := base64.StdEncoding.DecodeString(w.Random)
	if err == nil {
		err = new(rand.PCG).UnmarshalBinary(b)
	}
	if err != nil {
		return fmt.Errorf("%w: world.random: %v", runtime.ErrBadSnapshot, err)
	}
	return nil
}

// loadWorld gives entity e, restored or imported, the world part its
// snapshot holds (checked by checkWorld). An entity saved without one
// gets a new identity on first use; a host under no zoned rules keeps
// nothing.
func (h *Host) loadWorld(e runtime.Handle, w *snapshot.WorldEntity) {
	if !h.world.on || w == nil {
		return
	}
	we := h.world.set(e, w.ID, h.rt.Seed())
	b, _ := base64.StdEncoding.DecodeString(w.Random)
	_ = we.src.UnmarshalBinary(b)
	we.spawned, we.timers = w.Spawned, w.Timers
}

// nextTimer returns the id of a new timer of instance inst: the next of
// its entity's under zoned rules, so that the ids a script sees do not
// depend on the zones; else the next of the host's.
func (h *Host) nextTimer(inst *runtime.Instance) int64 {
	if we := h.worldEntity(inst.Entity()); we != nil {
		we.timers++
		return we.timers
	}
	h.timerSeq++
	return h.timerSeq
}

// lastTimer returns the id of the last timer made that inst's timers
// may have: its entity's last under zoned rules, else the host's.
func (h *Host) lastTimer(inst *runtime.Instance) int64 {
	if we := h.worldEntity(inst.Entity()); we != nil {
		return we.timers
	}
	return h.timerSeq
}
