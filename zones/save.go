package zones

import (
	"cmp"
	"fmt"
	"slices"

	"github.com/luahost/luahost/luabind"
	"github.com/luahost/luahost/runtime"
	"github.com/luahost/luahost/snapshot"
)

// Saving a zoned world. Between frames, a world over zones is its
// zones' entities, the state every zone holds alike (frame, time, seed,
// blackboard, scripts), and the effects of the last frame waiting for
// the next. Save writes them as one snapshot in which the number of
// zones does not show: the entities of every zone, numbered from 1:1 in
// the order of their identities, and the effects once each. Part cuts
// such a snapshot for one zone of any layout, so that a world saved on
// n zones continues on m, and plays on as if it had never stopped.

// effectKinds are the names of the effect kinds in a snapshot.
var effectKinds = map[luabind.EffectKind]string{
	luabind.EffectSend:      "send",
	luabind.EffectKill:      "kill",
	luabind.EffectTag:       "tag",
	luabind.EffectUntag:     "untag",
	luabind.EffectSet:       "set",
	luabind.EffectAttach:    "attach",
	luabind.EffectDetach:    "detach",
	luabind.EffectBroadcast: "broadcast",
	luabind.EffectWrite:     "write",
}

// partNames are the names of a transform's parts in a snapshot.
var partNames = [...]string{runtime.Position: "position", runtime.Rotation: "rotation", runtime.Scale: "scale"}

// Save returns the world between frames as one snapshot of the whole
// world (see the top of this file), whose Zoned field holds the layout
// and the effects waiting for the next frame. The snapshot's
// ScriptsDir is empty.
func (w *World) Save() (*snapshot.World, error) {
	if w.closed {
		return nil, runtime.ErrClosed
	}
	var doc snapshot.World
	var timerSeq int64
	for i, z := range w.zones {
		s, err := z.host.Snapshot()
		if err != nil {
			return nil, fmt.Errorf("zone %d: %w", i, err)
		}
		if i == 0 {
			doc = snapshot.World{Format: s.Format, Frame: s.Frame, Time: s.Time, DT: s.DT, Seed: s.Seed, Blackboard: s.Blackboard}
		}
		for _, sc := range s.Scripts {
			if !slices.ContainsFunc(doc.Scripts, func(o snapshot.Script) bool { return o.Name == sc.Name }) {
				doc.Scripts = append(doc.Scripts, sc)
			}
		}
		timerSeq = max(timerSeq, s.TimerSeq)
		pending := make(map[string]bool, len(s.Activate))
		for _, id := range s.Activate {
			pending[id] = true
		}
		for _, e := range s.Entities {
			if e.World == nil {
				return nil, fmt.Errorf("zone %d: entity %s has no world identity", i, e.ID)
			}
			if pending[e.ID] {
				// Marked for Part, which lists it in Activate again.
				e.ID = "activate"
			}
			doc.Entities = append(doc.Entities, e)
		}
	}
	// A zone loads the scripts its entities need, in the order they
	// come: every zone's, by name, are the same on any number of zones.
	slices.SortFunc(doc.Scripts, func(a, b snapshot.Script) int { return cmp.Compare(a.Name, b.Name) })
	slices.SortFunc(doc.Entities, func(a, b snapshot.Entity) int { return cmp.Compare(a.World.ID, b.World.ID) })
	var seq uint64
	for i := range doc.Entities {
		e := &doc.Entities[i]
		id := runtime.FormatHandleID(runtime.Handle{Index: uint32(i + 1), Gen: 1})
		if e.ID == "activate" {
			doc.Activate = append(doc.Activate, id)
		}
		e.ID = id
		for j := range e.Instances {
			seq++
			e.Instances[j].Seq = seq
		}
	}
	doc.Seq, doc.TimerSeq = seq, timerSeq
	doc.Slots, doc.Free = uint32(len(doc.Entities)+1), []string{}
	doc.Zoned = &snapshot.Zoned{Axis: AxisName(w.layout.Axis), Edges: slices.Clone(w.layout.Edges)}
	if doc.Zoned.Edges == nil {
		doc.Zoned.Edges = []float64{}
	}
	// In delivery order, numbered anew: the zones' own numbers depend on
	// which entities each holds.
	pending := slices.Clone(w.pending)
	slices.SortStableFunc(pending, func(a, b luabind.Effect) int {
		return cmp.Or(cmp.Compare(a.From, b.From), cmp.Compare(a.Seq, b.Seq))
	})
	for i, e := range pending {
		e.Seq = uint64(i + 1)
		se, err := saveEffect(e)
		if err != nil {
			return nil, err
		}
		doc.Zoned.Effects = append(doc.Zoned.Effects, se)
	}
	return &doc, nil
}

// saveEffect returns the snapshot form of effect e.
func saveEffect(e luabind.Effect) (snapshot.Effect, error) {
	se := snapshot.Effect{Kind: effectKinds[e.Kind], To: e.To, From: e.From, Seq: e.Seq, Name: e.Name, Mask: e.Mask}
	if e.Data != nil {
		if _, err := runtime.Plain(e.Data); err != nil {
			return se, fmt.Errorf("effect %s of entity %d: %w", se.Kind, e.From, err)
		}
		se.Data = &runtime.PlainJSON{Value: e.Data}
	}
	if e.Kind == luabind.EffectSet {
		se.Part = partNames[e.Part]
		se.Vec = &snapshot.Vec{e.Vec.X, e.Vec.Y, e.Vec.Z}
	}
	return se, nil
}

// loadEffect returns the effect of its snapshot form se.
func loadEffect(se snapshot.Effect) (luabind.Effect, error) {
	e := luabind.Effect{To: se.To, From: se.From, Seq: se.Seq, Name: se.Name, Mask: se.Mask}
	for k, name := range effectKinds {
		if name == se.Kind {
			e.Kind = k
		}
	}
	if e.Kind == 0 {
		return e, fmt.Errorf("%w: effect of kind %q", runtime.ErrBadSnapshot, se.Kind)
	}
	if (e.Kind == luabind.EffectBroadcast || e.Kind == luabind.EffectWrite) != (e.To == 0) {
		return e, fmt.Errorf("%w: a %s effect to %d (broadcasts and writes go to the whole world, 0; the others to an entity)", runtime.ErrBadSnapshot, se.Kind, se.To)
	}
	if se.Data != nil {
		e.Data = se.Data.Value
	}
	if e.Kind == luabind.EffectSet {
		i := slices.Index(partNames[:], se.Part)
		if i < 0 || se.Vec == nil {
			return e, fmt.Errorf("%w: a set effect needs a part (position, rotation or scale) and a vec", runtime.ErrBadSnapshot)
		}
		e.Part, e.Vec = runtime.Part(i), runtime.Vec3{X: se.Vec[0], Y: se.Vec[1], Z: se.Vec[2]}
	}
	return e, nil
}

// SavedLayout returns the layout saved, the snapshot of a zoned world
// (see Save), ran on, or, for
// another number of zones n, n equal strips along its axis over the
// entities' positions (an entity without one is at the origin).
func SavedLayout(saved *snapshot.World, n int) (Layout, error) {
	l, err := savedLayout(saved)
	if err != nil || l.Zones() == n {
		return l, err
	}
	lo, hi := 0.0, 0.0
	for i, e := range saved.Entities {
		v := axisOf(e, l.Axis)
		if i == 0 {
			lo, hi = v, v
		}
		lo, hi = min(lo, v), max(hi, v)
	}
	return Split(l.Axis, lo, hi, n), nil
}

func savedLayout(saved *snapshot.World) (Layout, error) {
	if saved.Zoned == nil {
		return Layout{}, fmt.Errorf("%w: not the snapshot of a zoned world (no \"zoned\" field)", runtime.ErrBadSnapshot)
	}
	axis, err := ParseAxis(saved.Zoned.Axis)
	if err != nil {
		return Layout{}, fmt.Errorf("%w: zoned.axis: %v", runtime.ErrBadSnapshot, err)
	}
	l := Layout{Axis: axis, Edges: saved.Zoned.Edges}
	if err := l.Check(); err != nil {
		return Layout{}, fmt.Errorf("%w: zoned: %v", runtime.ErrBadSnapshot, err)
	}
	return l, nil
}

// axisOf returns entity e's position on axis.
func axisOf(e snapshot.Entity, axis int) float64 {
	if e.Position == nil {
		return 0
	}
	return e.Position[axis]
}

// Part returns zone zone's part of saved, the snapshot of a zoned world
// (see Save), for layout: a snapshot of one world holding
// the entities whose position lies in the zone's strip, numbered from
// 1:1, for the zone's host to Restore. The effects are left out: New
// delivers them (Options.Effects). saved is not changed.
func Part(saved *snapshot.World, layout Layout, zone int) *snapshot.World {
	p := *saved
	p.Zoned, p.NameOrder, p.Activate, p.Entities = nil, nil, nil, nil
	activate := make(map[string]bool, len(saved.Activate))
	for _, id := range saved.Activate {
		activate[id] = true
	}
	for _, e := range saved.Entities {
		var at runtime.Vec3
		if e.Position != nil {
			at = runtime.Vec3{X: e.Position[0], Y: e.Position[1], Z: e.Position[2]}
		}
		if layout.Zone(at) != zone {
			continue
		}
		was := e.ID
		e.ID = runtime.FormatHandleID(runtime.Handle{Index: uint32(len(p.Entities) + 1), Gen: 1})
		if activate[was] {
			p.Activate = append(p.Activate, e.ID)
		}
		p.Entities = append(p.Entities, e)
	}
	p.Slots, p.Free = uint32(len(p.Entities)+1), []string{}
	return &p
}

// Effects returns the effects saved, the snapshot of a zoned world (see
// Save), holds for the next frame, for Options.Effects; an effect that
// does not read is an error.
func Effects(saved *snapshot.World) ([]luabind.Effect, error) {
	if saved.Zoned == nil {
		return nil, fmt.Errorf("%w: not the snapshot of a zoned world (no \"zoned\" field)", runtime.ErrBadSnapshot)
	}
	es := make([]luabind.Effect, 0, len(saved.Zoned.Effects))
	for i, se := range saved.Zoned.Effects {
		e, err := loadEffect(se)
		if err != nil {
			return nil, fmt.Errorf("zoned.effects[%d]: %w", i, err)
		}
		es = append(es, e)
	}
	return es, nil
}
