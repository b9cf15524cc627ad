package runtime

import (
	"cmp"
	"fmt"
	"slices"
)

// Restore makes a fresh runtime (see Fresh) the world ws describes: the
// frame's numbers and the seed, the slot map with its generations and
// free list (so every saved handle keeps its meaning), the entities with
// their names, tags, states and transforms, and the instances in their
// saved places of the schedule, with their flags and Data, subscribed to
// their scripts' events. No callback runs: no onCreate. ws is checked
// whole (WorldState.Check) before anything changes, so a bad one leaves
// the runtime fresh. The blackboard's values are copied.
// O(slots + instances + blackboard).
func (rt *Runtime) Restore(ws *WorldState) error {
	if err := rt.between("restore"); err != nil {
		return err
	}
	if !rt.Fresh() {
		return fmt.Errorf("restore: the runtime is not fresh (it has run frames, spawned entities or attached scripts)")
	}
	if err := ws.Check(); err != nil {
		return fmt.Errorf("restore: %w", err)
	}
	bb := make([]Field, 0, len(ws.Blackboard))
	for _, f := range ws.Blackboard {
		k, ok := f.Key.(string)
		if !ok {
			return fmt.Errorf("restore: %w: blackboard keys must be strings, not %T", ErrBadSnapshot, f.Key)
		}
		v, err := Plain(f.Value)
		if err != nil {
			return fmt.Errorf("restore: blackboard key %q: %w", k, err)
		}
		bb = append(bb, Field{Key: k, Value: v})
	}
	rt.opts.Seed = ws.Seed
	rt.frame, rt.time, rt.dt, rt.seq = ws.Frame, ws.Time, ws.DT, ws.Seq
	rt.slots.slots = make([]slot, ws.Slots)
	for i := range rt.slots.slots {
		rt.slots.slots[i].dense = -1
	}
	for _, f := range ws.Free {
		rt.slots.slots[f.Index].gen = f.Gen
		rt.slots.free = append(rt.slots.free, f.Index)
	}
	shared := make(map[Handle]bool)
	for _, order := range ws.NameOrder {
		for _, h := range order {
			shared[h] = true
		}
	}
	var insts []*Instance
	for i := range ws.Entities {
		es := &ws.Entities[i]
		h := es.Handle
		e := rt.payloads.Get()
		e.transform = es.Transform
		s := &rt.slots.slots[h.Index]
		*s = slot{gen: h.Gen, state: es.State, dense: len(rt.slots.dense), ent: e}
		rt.slots.dense = append(rt.slots.dense, h)
		rt.spatial.place(h.Index, es.Transform.Position)
		for _, tag := range es.Tags {
			_ = rt.Tag(h, tag)
		}
		if es.Name != "" && !shared[h] {
			_ = rt.SetName(h, es.Name)
		}
		for _, is := range es.Instances {
			insts = append(insts, rt.restoreInstance(h, s, is, is.Seq))
		}
	}
	for _, order := range ws.NameOrder {
		for _, h := range order {
			_ = rt.SetName(h, ws.entity(h).Name)
		}
	}
	slices.SortFunc(insts, func(a, b *Instance) int { return cmp.Compare(a.seq, b.seq) })
	for _, inst := range insts {
		rt.join(inst)
	}
	for _, f := range bb {
		rt.blackboard.SetPlain(f.Key.(string), f.Value)
	}
	return nil
}

// restoreInstance makes a created instance of is on the entity h in slot
// s, with the attach sequence number seq, without running onCreate. It
// joins the entity, not yet the schedule (join).
func (rt *Runtime) restoreInstance(h Handle, s *slot, is InstanceState, seq uint64) *Instance {
	inst := &Instance{Data: is.Data, rt: rt, script: is.Script, entity: h, seq: seq, priority: is.Script.Priority(),
		state: instCreated, faulted: is.Faulted, createFailed: is.CreateFailed, active: s.state == StateActive}
	inst.setUpdater(is.Script)
	inst.handler, _ = is.Script.(EventHandler)
	s.ent.insts = append(s.ent.insts, inst)
	rt.instanceCnt++
	return inst
}

// join puts a restored or imported instance in the schedule, its script's
// group and its events' observer lists. Instances join in seq order.
func (rt *Runtime) join(inst *Instance) {
	rt.sched.add(inst.priority, inst)
	g := rt.byScript[inst.script]
	if g == nil {
		g = &group{}
		rt.byScript[inst.script] = g
	}
	g.insts = append(g.insts, inst)
	if inst.handler != nil {
		rt.events.subscribe(inst)
	}
}

// Adopt brings an entity saved by SaveEntity (in this runtime or another)
// into the world between frames, as a new entity: a new handle, its
// saved state (Pending or Active), name, tags and transform, and its
// instances, in their saved attach order, attached now (they come last
// in attach order) without running onCreate, with their flags and Data.
// es is checked before anything changes. O(instances + tags).
func (rt *Runtime) Adopt(es EntityState) (Handle, error) {
	if err := rt.between("import"); err != nil {
		return Handle{}, err
	}
	if err := es.Check(); err != nil {
		return Handle{}, fmt.Errorf("import: %w", err)
	}
	h := rt.SpawnAt(es.Transform)
	s := &rt.slots.slots[h.Index]
	if es.State == StateActive {
		s.setState(StateActive)
	}
	for _, tag := range es.Tags {
		_ = rt.Tag(h, tag)
	}
	if es.Name != "" {
		_ = rt.SetName(h, es.Name)
	}
	saved := slices.Clone(es.Instances)
	slices.SortStableFunc(saved, func(a, b InstanceState) int { return cmp.Compare(a.Seq, b.Seq) })
	for _, is := range saved {
		rt.seq++
		rt.join(rt.restoreInstance(h, s, is, rt.seq))
	}
	return h, nil
}

// Evict takes an entity out of the world between frames without
// settlement: its instances leave the schedule and their event lists
// without onDestroy, and the entity is reaped (its handles are stale from
// here on). It is how an entity leaves for another runtime in a
// handoff: save it first with SaveEntity. O(its instances + tags).
func (rt *Runtime) Evict(h Handle) error {
	if err := rt.between("export"); err != nil {
		return err
	}
	s, err := rt.slots.get(h)
	if err != nil {
		return err
	}
	e := s.ent
	if (s.state != StatePending && s.state != StateActive) || e.cancelled || e.settling {
		return fmt.Errorf("export %s: it is %s", h, s.state)
	}
	for _, inst := range e.insts {
		if inst.state != instCreated {
			continue
		}
		inst.state = instDestroyed
		inst.detached = true
		inst.unsubscribe()
		rt.instanceCnt--
		rt.sched.remove(inst)
		rt.byScript[inst.script].drop()
	}
	clear(e.insts)
	e.insts, e.deadInsts = e.insts[:0], 0
	rt.sched.compactDue()
	if s.state == StateActive {
		s.setState(StateDying)
	}
	rt.reap(h)
	return nil
}
