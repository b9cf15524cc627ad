package runtime

import (
	"cmp"
	"errors"
	"fmt"
	"slices"
)

// Snapshots (docs/snapshot.md) live with what they save: the runtime saves and
// restores what it owns — the frame's numbers, the slot map, entities with
// their names, tags, lifecycle states and committed transforms, the
// instances' places in the schedule and their flags, the blackboard — and
// leaves each instance's own state (Instance.Data) to its script's
// implementation, which composes the document (package luabind).

// ErrBadSnapshot means a saved world or entity that cannot be restored: a
// handle out of range, two entities in one slot, a state an entity cannot
// be saved in. The error says which and where.
var ErrBadSnapshot = errors.New("bad snapshot")

// ErrNotSaveable means a snapshot or an export that would have to save an
// instance whose script cannot save it: a Go-native script that is not a
// Saver. The error names the entity and the script; the world is left as
// it was.
var ErrNotSaveable = errors.New("not saveable")

// WorldState is what a Runtime owns of a world, between frames.
type WorldState struct {
	// Frame, Time and DT are the frame number, simulated seconds and the
	// last frame's dt.
	Frame uint64
	Time  float64
	DT    float64
	// Seed is Options.Seed.
	Seed int64
	// Seq is the last attach sequence number given: the next attach gets
	// Seq+1.
	Seq uint64
	// Slots is the size of the slot map (the highest index plus one;
	// slot 0 is never used).
	Slots uint32
	// Free is the free list, bottom first (the next spawn takes the
	// last): each free slot's index and the generation its next entity
	// will get. Every slot from 1 to Slots-1 is either free or the slot of
	// exactly one entity.
	Free []Handle
	// Entities are the live entities, by index.
	Entities []EntityState
	// NameOrder lists, for each name that several entities share, their
	// handles in naming order (Find returns the first).
	NameOrder [][]Handle
	// Blackboard is the blackboard's keys (sorted) and values.
	Blackboard []Field

	// limits caches, per slot, the newest generation a handle may have.
	limits []uint32
}

// EntityState is one entity: its handle, lifecycle state, name, tags,
// committed transform and live instances in attach order.
type EntityState struct {
	Handle    Handle
	State     State
	Name      string
	Tags      []string
	Transform Transform
	Instances []InstanceState
}

// InstanceState is one live instance: its script, attach sequence number
// (its place in attach order), flags, and Data. On save, Data is the
// instance's Data as it is (the script's implementation turns it into
// something it can save); on restore, it becomes the new instance's Data.
type InstanceState struct {
	Seq          uint64
	Script       Script
	Faulted      bool
	CreateFailed bool
	Data         any
}

// between refuses a save or restore during a frame, a dispatch or a
// flush: snapshots are taken between frames.
func (rt *Runtime) between(what string) error {
	switch {
	case rt.closed:
		return fmt.Errorf("%s: %w", what, ErrClosed)
	case rt.stepping:
		return fmt.Errorf("%s: %w", what, ErrStepping)
	case rt.deferring() || len(rt.detached) > 0 || len(rt.dying) > 0:
		return fmt.Errorf("%s: not allowed during an event dispatch or a settlement", what)
	}
	return nil
}

// Save returns the world's state between frames. Instance data is
// returned as it is (see InstanceState), tags and names as copies, the
// blackboard's values as the stored plain data, which the caller must not
// change. O(entities + instances + blackboard).
func (rt *Runtime) Save() (*WorldState, error) {
	if err := rt.between("save"); err != nil {
		return nil, err
	}
	ws := &WorldState{Frame: rt.frame, Time: rt.time, DT: rt.dt, Seed: rt.opts.Seed, Seq: rt.seq,
		Slots: uint32(len(rt.slots.slots))}
	for _, idx := range rt.slots.free {
		ws.Free = append(ws.Free, Handle{Index: idx, Gen: rt.slots.slots[idx].gen})
	}
	ws.Entities = make([]EntityState, 0, len(rt.slots.dense))
	for idx := 1; idx < len(rt.slots.slots); idx++ {
		s := &rt.slots.slots[idx]
		if s.state == StateNone {
			continue
		}
		es, err := rt.saveEntity(Handle{Index: uint32(idx), Gen: s.gen})
		if err != nil {
			return nil, err
		}
		ws.Entities = append(ws.Entities, es)
	}
	for _, name := range sortedNames(rt.names) {
		if l := rt.names[name]; len(l.hs)-l.dead > 1 {
			ws.NameOrder = append(ws.NameOrder, slices.DeleteFunc(slices.Clone(l.hs), Handle.IsZero))
		}
	}
	for _, k := range rt.blackboard.Keys() {
		ws.Blackboard = append(ws.Blackboard, Field{Key: k, Value: rt.blackboard.GetPlain(k)})
	}
	return ws, nil
}

func sortedNames(m map[string]*nameList) []string {
	names := make([]string, 0, len(m))
	for n := range m {
		names = append(names, n)
	}
	slices.Sort(names)
	return names
}

// SaveEntity returns one entity's state between frames: Pending or
// Active, with its live instances in attach order.
func (rt *Runtime) SaveEntity(h Handle) (EntityState, error) {
	if err := rt.between("save " + h.String()); err != nil {
		return EntityState{}, err
	}
	return rt.saveEntity(h)
}

// saveEntity is SaveEntity without the check that no frame runs.
func (rt *Runtime) saveEntity(h Handle) (EntityState, error) {
	s, err := rt.slots.get(h)
	if err != nil {
		return EntityState{}, err
	}
	e := s.ent
	if (s.state != StatePending && s.state != StateActive) || e.cancelled || e.settling {
		return EntityState{}, fmt.Errorf("save %s: it is %s", h, s.state)
	}
	es := EntityState{Handle: h, State: s.state, Name: e.name, Tags: slices.Clone(rt.tags.byEnt[h.Index]), Transform: e.transform}
	es.Instances = make([]InstanceState, 0, len(e.insts))
	for _, inst := range e.insts {
		if inst.state != instCreated || inst.detached {
			continue
		}
		es.Instances = append(es.Instances, InstanceState{Seq: inst.seq, Script: inst.script,
			Faulted: inst.faulted, CreateFailed: inst.createFailed, Data: inst.Data})
	}
	return es, nil
}

// Fresh reports whether nothing has happened in the runtime yet: no frame,
// no entity ever spawned, no script ever attached. Only a fresh runtime
// can Restore.
func (rt *Runtime) Fresh() bool {
	return rt.frame == 0 && len(rt.slots.slots) == 1 && rt.seq == 0 && !rt.closed
}

// Check validates ws on its own: the slot map (every slot from 1 to
// Slots-1 exactly once, free or an entity's, generations not 0), entity states
// (Pending or Active), names, tags, instance sequence numbers (unique, at
// most Seq) and scripts (not nil). The error wraps ErrBadSnapshot.
func (ws *WorldState) Check() error {
	if ws.Slots == 0 {
		return fmt.Errorf("%w: slots must be at least 1 (slot 0 is reserved)", ErrBadSnapshot)
	}
	// Checked before anything is sized by Slots, so that a hostile
	// snapshot cannot make the check allocate more than it lists.
	if n := uint64(len(ws.Free)) + uint64(len(ws.Entities)) + 1; uint64(ws.Slots) != n {
		return fmt.Errorf("%w: slots is %d, but the snapshot lists %d free slots and %d entities (slot 0 is reserved: want %d)", ErrBadSnapshot, ws.Slots, len(ws.Free), len(ws.Entities), n)
	}
	taken := make([]bool, ws.Slots)
	claim := func(h Handle, what string) error {
		switch {
		case h.Index == 0 || h.Index >= ws.Slots:
			return fmt.Errorf("%w: %s %s: index out of range (the snapshot has %d slots)", ErrBadSnapshot, what, h, ws.Slots)
		case h.Gen == 0:
			return fmt.Errorf("%w: %s %s: generation 0 is never valid", ErrBadSnapshot, what, h)
		case taken[h.Index]:
			return fmt.Errorf("%w: %s %s: slot %d is listed twice", ErrBadSnapshot, what, h, h.Index)
		}
		taken[h.Index] = true
		return nil
	}
	for _, h := range ws.Free {
		if err := claim(h, "free slot"); err != nil {
			return err
		}
	}
	var seqs []uint64
	for i, es := range ws.Entities {
		if i > 0 && es.Handle.Index <= ws.Entities[i-1].Handle.Index {
			return fmt.Errorf("%w: entity %s: entities must be listed by index", ErrBadSnapshot, es.Handle)
		}
		if err := claim(es.Handle, "entity"); err != nil {
			return err
		}
		if err := es.Check(); err != nil {
			return err
		}
		for _, is := range es.Instances {
			if is.Seq == 0 || is.Seq > ws.Seq {
				return fmt.Errorf("%w: entity %s: instance of %s: seq %d is 0 or above the snapshot's seq %d", ErrBadSnapshot, es.Handle, is.Script.Name(), is.Seq, ws.Seq)
			}
			seqs = append(seqs, is.Seq)
		}
	}
	slices.Sort(seqs)
	for i := 1; i < len(seqs); i++ {
		if seqs[i] == seqs[i-1] {
			return fmt.Errorf("%w: two instances have the seq %d", ErrBadSnapshot, seqs[i])
		}
	}
	// As many slots as listed, each listed once: every slot is listed.
	for _, order := range ws.NameOrder {
		var name string
		for i, h := range order {
			es := ws.entity(h)
			if es == nil || es.Name == "" || (i > 0 && es.Name != name) {
				return fmt.Errorf("%w: name order: %s is not an entity sharing the name of %s", ErrBadSnapshot, h, order[0])
			}
			name = es.Name
		}
	}
	return nil
}

// entity returns the entity of ws whose handle is h, or nil.
func (ws *WorldState) entity(h Handle) *EntityState {
	i, found := slices.BinarySearchFunc(ws.Entities, h.Index, func(es EntityState, idx uint32) int { return cmp.Compare(es.Handle.Index, idx) })
	if !found || ws.Entities[i].Handle != h {
		return nil
	}
	return &ws.Entities[i]
}

// Check validates one entity on its own: its state (Pending or Active),
// its tags (non-empty, sorted, each once) and its instances' scripts (not
// nil). The error wraps ErrBadSnapshot.
func (es *EntityState) Check() error {
	if es.State != StatePending && es.State != StateActive {
		return fmt.Errorf("%w: entity %s: state %s (want pending or active)", ErrBadSnapshot, es.Handle, es.State)
	}
	for i, tag := range es.Tags {
		if tag == "" || (i > 0 && tag <= es.Tags[i-1]) {
			return fmt.Errorf("%w: entity %s: tags must be non-empty strings, sorted, each once", ErrBadSnapshot, es.Handle)
		}
	}
	for _, is := range es.Instances {
		if is.Script == nil {
			return fmt.Errorf("%w: entity %s: an instance without a script", ErrBadSnapshot, es.Handle)
		}
	}
	return nil
}

// Valid reports whether h can be a handle of the world ws describes: a
// live entity's, or a stale one (an older generation of a slot). A handle
// of a slot the world does not have, or of a generation it has not given
// yet, is an error wrapping ErrBadSnapshot. O(1) after the first call,
// which costs O(slots); ws must not change after it.
func (ws *WorldState) Valid(h Handle) error {
	if ws.limits == nil {
		ws.limits = make([]uint32, ws.Slots)
		for _, f := range ws.Free {
			if f.Index < ws.Slots {
				ws.limits[f.Index] = f.Gen - 1
			}
		}
		for _, es := range ws.Entities {
			if es.Handle.Index < ws.Slots {
				ws.limits[es.Handle.Index] = es.Handle.Gen
			}
		}
	}
	switch {
	case h.Index == 0 || h.Index >= ws.Slots || h.Gen == 0:
		return fmt.Errorf("%w: %s is out of range (the snapshot has %d slots)", ErrBadSnapshot, h, ws.Slots)
	case h.Gen > ws.limits[h.Index]:
		return fmt.Errorf("%w: %s: slot %d has not reached that generation", ErrBadSnapshot, h, h.Index)
	}
	return nil
}
