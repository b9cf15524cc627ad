package luabind

import (
	"encoding/base64"
	"fmt"
	"math/rand/v2"
	"slices"

	lua "github.com/yuin/gopher-lua"

	"github.com/luahost/luahost/runtime"
	"github.com/luahost/luahost/snapshot"
)

// Snapshot saves the world between frames. It is an error during a
// frame, an event dispatch or a reload, after Close, and for a self or a
// Go-native instance's data that is not plain data (the error names the
// entity, the script and the path of the value). An instance of a
// Go-native script is saved through its runtime.Saver methods; one of a
// script that is not a Saver refuses the snapshot before any state is
// copied, with an error wrapping runtime.ErrNotSaveable, unless
// Options.SkipNotSaveable leaves it out. The world is not changed either
// way. O(the world's state).
func (h *Host) Snapshot() (*snapshot.World, error) {
	if err := h.idle("snapshot"); err != nil {
		return nil, err
	}
	ws, err := h.rt.Save()
	if err != nil {
		return nil, fmt.Errorf("snapshot: %w", err)
	}
	if err := h.saveable(ws.Entities); err != nil {
		return nil, fmt.Errorf("snapshot: %w", err)
	}
	snap := &snapshot.World{Format: snapshot.Format, Frame: ws.Frame, Time: ws.Time, DT: ws.DT, Seed: ws.Seed, Seq: ws.Seq,
		TimerSeq: h.timerSeq, Slots: ws.Slots, Free: make([]string, 0, len(ws.Free)), Scripts: make([]snapshot.Script, 0, len(h.order)),
		Entities: make([]snapshot.Entity, 0, len(ws.Entities))}
	for _, f := range ws.Free {
		snap.Free = append(snap.Free, runtime.FormatHandleID(f))
	}
	for _, s := range h.order {
		b, err := s.st.rng.MarshalBinary()
		if err != nil {
			return nil, fmt.Errorf("snapshot: %s: random generator: %w", s.name, err)
		}
		snap.Scripts = append(snap.Scripts, snapshot.Script{Name: s.name, Random: base64.StdEncoding.EncodeToString(b)})
	}
	snap.Blackboard.Value = &runtime.Table{Fields: ws.Blackboard}
	for _, order := range ws.NameOrder {
		ids := make([]string, len(order))
		for i, e := range order {
			ids[i] = runtime.FormatHandleID(e)
		}
		snap.NameOrder = append(snap.NameOrder, ids)
	}
	for _, e := range h.setupSpawns {
		if st, err := h.rt.State(e); err == nil && st == runtime.StatePending {
			snap.Activate = append(snap.Activate, runtime.FormatHandleID(e))
		}
	}
	for _, es := range ws.Entities {
		es, err := h.saveEntity(es)
		if err != nil {
			return nil, fmt.Errorf("snapshot: %w", err)
		}
		snap.Entities = append(snap.Entities, es)
	}
	return snap, nil
}

// Restore makes the world of snap in this host, whose runtime must be
// fresh (no frame run, no entity spawned, no script attached): the seed
// and the frame's numbers, every entity under its saved handle, every
// instance with its self, flags and timers in its saved place of the
// schedule, the blackboard, and each script's random generator, loading
// the scripts it names. No onCreate runs; afterwards every instance that
// is not faulted gets onRestore(self, ctx), in schedule order (an error is
// reported and faults the instance). The whole snapshot is checked, and
// its scripts loaded, before anything changes: a bad snapshot (a handle
// out of range, an unknown script, a malformed value) is an error naming
// where it is, and the host is left as it was.
func (h *Host) Restore(snap *snapshot.World) error {
	if err := h.idle("restore"); err != nil {
		return err
	}
	if err := snap.CheckFormat(); err != nil {
		return fmt.Errorf("restore: %w", err)
	}
	if err := h.checkRestoreCeiling(snap); err != nil {
		return fmt.Errorf("restore: %w", err)
	}
	var added []*Script
	fail := func(err error) error {
		h.unload(added)
		return fmt.Errorf("restore: %w", err)
	}
	if !h.rt.Fresh() {
		return fail(fmt.Errorf("the runtime is not fresh (it has run frames, spawned entities or attached scripts)"))
	}
	ws := &runtime.WorldState{Frame: snap.Frame, Time: snap.Time, DT: snap.DT, Seed: snap.Seed, Seq: snap.Seq, Slots: snap.Slots}
	for i, id := range snap.Free {
		f, err := runtime.ParseHandleID(id)
		if err != nil {
			return fail(fmt.Errorf("free[%d]: %w", i, err))
		}
		ws.Free = append(ws.Free, f)
	}
	for i, ids := range snap.NameOrder {
		var order []runtime.Handle
		for _, id := range ids {
			e, err := runtime.ParseHandleID(id)
			if err != nil {
				return fail(fmt.Errorf("name_order[%d]: %w", i, err))
			}
			order = append(order, e)
		}
		ws.NameOrder = append(ws.NameOrder, order)
	}
	rngs := make([][]byte, len(snap.Scripts))
	for i, ss := range snap.Scripts {
		if h.scripts[ss.Name] == nil {
			s, err := h.Load(ss.Name)
			if err != nil {
				return fail(fmt.Errorf("scripts[%d]: unknown script %q: %w", i, ss.Name, err))
			}
			added = append(added, s)
		}
		b, err := base64.StdEncoding.DecodeString(ss.Random)
		if err == nil {
			// Only checked here; set below, once nothing can fail.
			err = new(rand.PCG).UnmarshalBinary(b)
		}
		if err != nil {
			return fail(fmt.Errorf("scripts[%d] (%s): %w: random: %v", i, ss.Name, runtime.ErrBadSnapshot, err))
		}
		rngs[i] = b
	}
	ws.Entities = make([]runtime.EntityState, 0, len(snap.Entities))
	for i := range snap.Entities {
		es, err := h.entityState(&snap.Entities[i], "entities[%d] (%s)", i, &added)
		if err != nil {
			return fail(err)
		}
		ws.Entities = append(ws.Entities, es)
	}
	bb, ok := snap.Blackboard.Value.(*runtime.Table)
	if snap.Blackboard.Value != nil && !ok {
		return fail(fmt.Errorf("%w: the blackboard must be a table of string keys", runtime.ErrBadSnapshot))
	}
	if bb != nil {
		ws.Blackboard = bb.Fields
	}
	if err := ws.Check(); err != nil {
		return fail(err)
	}
	if err := checkHandles(snap, ws, h.world.on); err != nil {
		return fail(err)
	}
	activate := make([]runtime.Handle, 0, len(snap.Activate))
	// A set, so that checking the list costs O(entities + list).
	pending := make(map[runtime.Handle]bool)
	for _, es := range ws.Entities {
		if es.State == runtime.StatePending {
			pending[es.Handle] = true
		}
	}
	for i, id := range snap.Activate {
		e, err := runtime.ParseHandleID(id)
		if err == nil && !pending[e] {
			err = fmt.Errorf("%w: %s is not a pending entity of the snapshot", runtime.ErrBadSnapshot, id)
		}
		if err != nil {
			return fail(fmt.Errorf("activate[%d]: %w", i, err))
		}
		activate = append(activate, e)
	}
	if err := h.rt.Restore(ws); err != nil {
		return fail(err)
	}
	for i, es := range ws.Entities {
		h.loadWorld(es.Handle, snap.Entities[i].World)
		insts, _ := h.rt.Instances(es.Handle)
		fill(&snap.Entities[i], insts, es.Handle, nil, func(due float64) float64 { return due })
	}
	for i, ss := range snap.Scripts {
		// Checked above: it cannot fail.
		_ = h.scripts[ss.Name].st.rng.UnmarshalBinary(rngs[i])
	}
	h.timerSeq = snap.TimerSeq
	for _, es := range snap.Entities {
		for _, is := range es.Instances {
			for _, ts := range is.Timers {
				h.timerSeq = max(h.timerSeq, ts.ID)
			}
		}
	}
	h.setupSpawns = append(h.setupSpawns, activate...)
	h.publish()
	onRestore := func(st *state) *lua.LFunction { return st.onRestore }
	if slices.ContainsFunc(h.order, func(s *Script) bool { return s.st.onRestore != nil }) {
		h.snapshotCallback(h.rt.Schedule(), "onRestore", onRestore)
	}
	return nil
}

// idle refuses a snapshot, restore, export or import after Close and
// while a callback or a reload runs: they happen between frames, from the
// goroutine that drives the world, not from inside a script.
func (h *Host) idle(what string) error {
	switch {
	case h.closed:
		return fmt.Errorf("%s: %w", what, runtime.ErrClosed)
	case h.deferred.on || h.nesting > 0:
		return fmt.Errorf("%s: not allowed inside a callback or a reload (call it between frames)", what)
	}
	return nil
}

// checkHandles checks that every entity handle in the snapshot's plain
// data (selves, timer data, the blackboard) is one of the world's, live
// or stale, or, for a host under zoned rules, a world handle.
func checkHandles(snap *snapshot.World, ws *runtime.WorldState, zoned bool) error {
	valid := func(h runtime.Handle) error {
		if _, ok := WorldID(h); ok && zoned {
			// A world handle names an entity by its identity, wherever
			// it lives.
			return nil
		}
		return ws.Valid(h)
	}
	for i, es := range snap.Entities {
		for j, is := range es.Instances {
			if err := eachHandle(is.Self.Value, valid); err != nil {
				return fmt.Errorf("entities[%d] (%s): instances[%d] (%s): self: %w", i, es.ID, j, is.Script, err)
			}
			if is.Data != nil {
				if err := eachHandle(is.Data.Value, valid); err != nil {
					return fmt.Errorf("entities[%d] (%s): instances[%d] (%s): data: %w", i, es.ID, j, is.Script, err)
				}
			}
			for k, ts := range is.Timers {
				if ts.Data == nil {
					continue
				}
				if err := eachHandle(ts.Data.Value, valid); err != nil {
					return fmt.Errorf("entities[%d] (%s): instances[%d] (%s): timers[%d]: %w", i, es.ID, j, is.Script, k, err)
				}
			}
		}
	}
	for _, f := range ws.Blackboard {
		k, ok := f.Key.(string)
		if !ok {
			return fmt.Errorf("%w: blackboard keys must be strings, not %s", runtime.ErrBadSnapshot, runtime.FormatPlain(f.Key))
		}
		if err := eachHandle(f.Value, valid); err != nil {
			return fmt.Errorf("blackboard key %q: %w", k, err)
		}
	}
	return nil
}
