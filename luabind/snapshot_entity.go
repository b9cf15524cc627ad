package luabind

import (
	"cmp"
	"fmt"
	"slices"

	lua "github.com/yuin/gopher-lua"

	"github.com/luahost/luahost/runtime"
)

// EntitySnapshot is one entity with everything that belongs to it (SPEC
// 12): its lifecycle state, name, tags, committed transform and every
// live instance with its script's state. It is a self-contained value: a
// world snapshot lists its entities in this form, and Export and Import
// move one from a world to another. Its JSON form is in docs/snapshot.md.
type EntitySnapshot struct {
	// ID is the entity's handle where it was saved, "INDEX:GEN".
	ID string `json:"id"`
	// State is "pending" for a Pending entity; empty for an Active one.
	State string `json:"state,omitempty"`
	// Name is the entity's scene name, if any.
	Name string `json:"name,omitempty"`
	// Tags are the entity's tags, sorted.
	Tags []string `json:"tags,omitempty"`
	// Position, Rotation and Scale are the committed transform; nil for
	// the default (0, 0, 0; 0, 0, 0; 1, 1, 1).
	Position *Vec `json:"position,omitempty"`
	Rotation *Vec `json:"rotation,omitempty"`
	Scale    *Vec `json:"scale,omitempty"`
	// Time is the world's simulated time when the entity was exported:
	// its timers' due times are on that clock, and an import moves them
	// to the importing world's clock. A world snapshot leaves it out
	// (its entities share the world's time).
	Time float64 `json:"time,omitempty"`
	// Instances are the live instances in attach order.
	Instances []InstanceSnapshot `json:"instances"`
}

// InstanceSnapshot is one live instance of a Lua script.
type InstanceSnapshot struct {
	// Seq is the instance's attach sequence number where it was saved:
	// its place in attach order, which breaks priority ties.
	Seq uint64 `json:"seq"`
	// Script is the script's name.
	Script string `json:"script"`
	// Self is the instance's self as plain data (a *runtime.Table);
	// functions stored in self's top level are code, not data, and are
	// left out, as a hot reload leaves them out. Its tables also hold the
	// keys the script removed (see SelfJSON).
	Self SelfJSON `json:"self"`
	// Props are the top-level keys the attach's props set: a hot reload
	// never gives them a new default (SPEC 6).
	Props []string `json:"props,omitempty"`
	// Timers are the pending timers, by due time then id.
	Timers []TimerSnapshot `json:"timers,omitempty"`
	// Faulted and CreateFailed are the instance's flags.
	Faulted      bool `json:"faulted,omitempty"`
	CreateFailed bool `json:"create_failed,omitempty"`
}

// SelfJSON is an instance's self in a snapshot: plain data in the JSON
// form of runtime.PlainJSON whose tables also hold the keys the script
// removed and gopher-lua still keeps a place for ("holes": Fields with a
// nil Value, null in JSON), so that a key set again after a restore goes
// back to its place in pairs order, as in the world that never stopped
// (docs/snapshot.md). A top-level key whose value is a function, left out
// as code, is a hole too.
type SelfJSON struct{ Value any }

// MarshalJSON encodes s.Value, holes as null.
func (s SelfJSON) MarshalJSON() ([]byte, error) { return runtime.AppendPlainJSON(nil, s.Value) }

// UnmarshalJSON decodes plain data into s.Value, keeping null values of
// keys as holes.
func (s *SelfJSON) UnmarshalJSON(b []byte) error {
	return parseInto(&s.Value, b, runtime.ParsePlainJSONWithHoles)
}

// parseInto sets *v to what parse reads from b; on an error *v is left
// as it was.
func parseInto(v *any, b []byte, parse func([]byte) (any, error)) error {
	p, err := parse(b)
	if err != nil {
		return err
	}
	*v = p
	return nil
}

// TimerSnapshot is one pending timer (SPEC 4.8).
type TimerSnapshot struct {
	// ID is the timer's id, as ctx.after and ctx.every returned it.
	ID int64 `json:"id"`
	// Fn names the function of the script table it calls.
	Fn string `json:"fn"`
	// Due is the simulated time at which it fires next.
	Due float64 `json:"due"`
	// Period is the period of an every timer; 0 for an after timer.
	Period float64 `json:"period,omitempty"`
	// Data is the plain data passed to the function; nil for none.
	Data *runtime.PlainJSON `json:"data,omitempty"`
}

// Vec is a vector in a snapshot: [x, y, z].
type Vec [3]float64

// MarshalJSON writes [x, y, z] (a number that is not finite as the
// tagged {"$number": ...} of plain data).
func (v Vec) MarshalJSON() ([]byte, error) {
	return runtime.AppendPlainJSON(nil, &runtime.Table{Fields: []runtime.Field{{Key: 1.0, Value: v[0]}, {Key: 2.0, Value: v[1]}, {Key: 3.0, Value: v[2]}}})
}

// UnmarshalJSON reads [x, y, z].
func (v *Vec) UnmarshalJSON(b []byte) error {
	p, err := runtime.ParsePlainJSON(b)
	if err != nil {
		return err
	}
	t, ok := p.(*runtime.Table)
	if !ok || len(t.Fields) != 3 {
		return fmt.Errorf("%w: a vector must be [x, y, z]", runtime.ErrBadSnapshot)
	}
	for i, f := range t.Fields {
		n, ok := f.Value.(float64)
		if !ok || f.Key != float64(i+1) {
			return fmt.Errorf("%w: a vector must be [x, y, z] (three numbers)", runtime.ErrBadSnapshot)
		}
		v[i] = n
	}
	return nil
}

func vecOrNil(v, def runtime.Vec3) *Vec {
	if v == def {
		return nil
	}
	return &Vec{v.X, v.Y, v.Z}
}

func (v *Vec) or(def runtime.Vec3) runtime.Vec3 {
	if v == nil {
		return def
	}
	return runtime.Vec3{X: v[0], Y: v[1], Z: v[2]}
}

// saveEntity turns the runtime's state of an entity into its snapshot.
func (h *Host) saveEntity(es runtime.EntityState) (EntitySnapshot, error) {
	t := es.Transform
	snap := EntitySnapshot{ID: runtime.FormatHandleID(es.Handle), Name: es.Name, Tags: es.Tags,
		Position: vecOrNil(t.Position, runtime.Vec3{}), Rotation: vecOrNil(t.Rotation, runtime.Vec3{}), Scale: vecOrNil(t.Scale, runtime.Vec3{X: 1, Y: 1, Z: 1}),
		Instances: make([]InstanceSnapshot, 0, len(es.Instances))}
	if es.State == runtime.StatePending {
		snap.State = "pending"
	}
	for _, is := range es.Instances {
		s, ok := is.Script.(*Script)
		if !ok || s.host != h {
			return EntitySnapshot{}, fmt.Errorf("save %s: its instance of %s is not a Lua script of this host: only Lua instances can be saved", es.Handle, is.Script.Name())
		}
		li := is.Data.(*instance)
		self, err := s.st.selfPlain(li.self)
		if err != nil {
			return EntitySnapshot{}, fmt.Errorf("save %s: %s: %w", es.Handle, s.name, err)
		}
		ins := InstanceSnapshot{Seq: is.Seq, Script: s.name, Self: SelfJSON{Value: self}, Props: li.propKeys,
			Faulted: is.Faulted, CreateFailed: is.CreateFailed}
		for _, tm := range li.timers {
			ts := TimerSnapshot{ID: tm.ID, Fn: tm.Fn, Due: tm.Due, Period: tm.Period}
			if tm.Data != nil {
				ts.Data = &runtime.PlainJSON{Value: tm.Data}
			}
			ins.Timers = append(ins.Timers, ts)
		}
		snap.Instances = append(snap.Instances, ins)
	}
	return snap, nil
}

// selfPlain copies self out as plain data, leaving out the functions of
// its top level.
func (st *state) selfPlain(self *lua.LTable) (*runtime.Table, error) {
	c := copier{stop: st.host.budget, holes: true}
	t := &runtime.Table{}
	for k, v := self.Next(lua.LNil); k != lua.LNil; k, v = self.Next(k) {
		if _, isFn := v.(*lua.LFunction); isFn {
			continue
		}
		if plainKey(k) == nil {
			return nil, notPlain("self", "a key of type "+k.Type().String())
		}
		pk, err := c.toPlain(k, "self", 0, nil)
		if err != nil {
			return nil, err
		}
		pv, err := c.toPlain(v, joinPath("self", pk), 1, []*lua.LTable{self})
		if err != nil {
			return nil, err
		}
		t.Fields = append(t.Fields, runtime.Field{Key: pk, Value: pv})
	}
	var err error
	t.Fields, err = c.withHoles(self, t.Fields, "self")
	return t, err
}

// entityState checks an entity snapshot and turns it into the runtime's
// form, with the handle it was saved under; each instance's Data is a new
// empty *instance, filled by fill once the entity's handle is known.
// Scripts are loaded on first use (newly loaded ones are added to
// *added). where names the entity in errors ("entities[%d] (%s)", filled
// with n and the snapshot's id).
func (h *Host) entityState(snap *EntitySnapshot, where string, n int, added *[]*Script) (runtime.EntityState, error) {
	fail := func(format string, args ...any) (runtime.EntityState, error) {
		return runtime.EntityState{}, fmt.Errorf("%s: %w", fmt.Sprintf(where, n, snap.ID), fmt.Errorf(format, args...))
	}
	hd, err := runtime.ParseHandleID(snap.ID)
	if err != nil {
		return fail("%w", err)
	}
	es := runtime.EntityState{Handle: hd, State: runtime.StateActive, Name: snap.Name, Tags: snap.Tags,
		Transform: runtime.Transform{Position: snap.Position.or(runtime.Vec3{}), Rotation: snap.Rotation.or(runtime.Vec3{}), Scale: snap.Scale.or(runtime.Vec3{X: 1, Y: 1, Z: 1})}}
	switch snap.State {
	case "":
	case "pending":
		es.State = runtime.StatePending
	default:
		return fail("%w: state %q (want \"pending\", or none for an active entity)", runtime.ErrBadSnapshot, snap.State)
	}
	for i := range snap.Instances {
		is := &snap.Instances[i]
		s := h.scripts[is.Script]
		if s == nil {
			if s, err = h.Load(is.Script); err != nil {
				return fail("instances[%d]: %w: unknown script %q: %w", i, runtime.ErrBadSnapshot, is.Script, err)
			}
			*added = append(*added, s)
		}
		if i > 0 && is.Seq <= snap.Instances[i-1].Seq {
			return fail("instances[%d] (%s): %w: instances must be listed in attach order (seq increasing)", i, is.Script, runtime.ErrBadSnapshot)
		}
		if _, ok := is.Self.Value.(*runtime.Table); !ok {
			return fail("instances[%d] (%s): %w: self must be a table, not %s", i, is.Script, runtime.ErrBadSnapshot, runtime.FormatPlain(is.Self.Value))
		}
		for j, ts := range is.Timers {
			if ts.Fn == "" || ts.ID <= 0 || ts.Period < 0 || ts.Due != ts.Due {
				return fail("instances[%d] (%s): timers[%d]: %w: want a positive id, a function name, a due time and a period not below 0", i, is.Script, j, runtime.ErrBadSnapshot)
			}
		}
		if len(is.Timers) > 1 {
			ids := make([]int64, len(is.Timers))
			for j, ts := range is.Timers {
				ids[j] = ts.ID
			}
			slices.Sort(ids)
			for j := 1; j < len(ids); j++ {
				if ids[j] == ids[j-1] {
					return fail("instances[%d] (%s): %w: timer id %d is given twice", i, is.Script, runtime.ErrBadSnapshot, ids[j])
				}
			}
		}
		if es.Instances == nil {
			es.Instances = make([]runtime.InstanceState, 0, len(snap.Instances))
		}
		es.Instances = append(es.Instances, runtime.InstanceState{Seq: is.Seq, Script: s,
			Faulted: is.Faulted, CreateFailed: is.CreateFailed, Data: &instance{}})
	}
	if err := es.Check(); err != nil {
		return fail("%w", err)
	}
	return es, nil
}

// fill builds the Lua side of the instances of an entity restored or
// imported as e: self, timers and props, in each script's state, with
// every entity handle in them passed through mapH and every timer's due
// time through shift (from the snapshot's clock to the world's).
func fill(snap *EntitySnapshot, insts []*runtime.Instance, e runtime.Handle, mapH func(runtime.Handle) any, shift func(float64) float64) {
	for i, inst := range insts {
		is := &snap.Instances[i]
		st := inst.Script().(*Script).st
		li := inst.Data.(*instance)
		li.self = st.fromPlain(mapHandles(is.Self.Value, mapH)).(*lua.LTable)
		li.ent = st.entity(e)
		li.propKeys = slices.Clone(is.Props)
		for _, ts := range is.Timers {
			tm := timer{ID: ts.ID, Fn: ts.Fn, Due: shift(ts.Due), Period: ts.Period}
			if ts.Data != nil {
				tm.Data = mapHandles(ts.Data.Value, mapH)
			}
			li.insertTimer(tm)
		}
	}
}

// mapHandles returns v with every entity handle (value or key) replaced
// by mapH's answer, a handle or a string; v itself is not changed. With a
// nil mapH it returns v.
func mapHandles(v any, mapH func(runtime.Handle) any) any {
	if mapH == nil {
		return v
	}
	switch x := v.(type) {
	case runtime.Handle:
		return mapH(x)
	case *runtime.Table:
		out := &runtime.Table{Fields: make([]runtime.Field, len(x.Fields))}
		for i, f := range x.Fields {
			out.Fields[i] = runtime.Field{Key: mapHandles(f.Key, mapH), Value: mapHandles(f.Value, mapH)}
		}
		return out
	}
	return v
}

// eachHandle calls fn for every entity handle in plain data v (values and
// keys) until fn returns an error.
func eachHandle(v any, fn func(runtime.Handle) error) error {
	switch x := v.(type) {
	case runtime.Handle:
		return fn(x)
	case *runtime.Table:
		for _, f := range x.Fields {
			if err := eachHandle(f.Key, fn); err != nil {
				return err
			}
			if err := eachHandle(f.Value, fn); err != nil {
				return err
			}
		}
	}
	return nil
}

// snapshotCallback runs the optional callback fn (onRestore, onExport,
// onImport) of every instance in insts that is not faulted, in schedule
// order; an error is reported and faults the instance, like any
// callback's.
func (h *Host) snapshotCallback(insts []*runtime.Instance, name string, fn func(*state) *lua.LFunction) {
	if !slices.ContainsFunc(h.order, func(s *Script) bool { return fn(s.st) != nil }) {
		return
	}
	slices.SortFunc(insts, func(a, b *runtime.Instance) int {
		if c := cmp.Compare(a.Script().Priority(), b.Script().Priority()); c != 0 {
			return c
		}
		return cmp.Compare(a.Seq(), b.Seq())
	})
	for _, inst := range insts {
		s, ok := inst.Script().(*Script)
		if !ok || !inst.Live() || inst.Faulted() {
			continue
		}
		if f := fn(s.st); f != nil {
			// Not timed (as a chunk is not): they run outside frames,
			// once per restore, export or import.
			if err := unblamed(s.st.callback(inst, f, kindChunk, name, 0)); err != nil {
				h.rt.Fault(inst, name, err)
			}
		}
	}
}
