package luabind

import (
	"cmp"
	"fmt"
	"slices"

	lua "github.com/yuin/gopher-lua"

	"github.com/luahost/luahost/luabind/internal/luaerr"
	"github.com/luahost/luahost/runtime"
	"github.com/luahost/luahost/snapshot"
)

// saveEntity turns the runtime's state of an entity into its snapshot.
func (h *Host) saveEntity(es runtime.EntityState) (snapshot.Entity, error) {
	t := es.Transform
	snap := snapshot.Entity{ID: runtime.FormatHandleID(es.Handle), Name: es.Name, Tags: es.Tags,
		Position: snapshot.VecOrNil(t.Position, runtime.Vec3{}), Rotation: snapshot.VecOrNil(t.Rotation, runtime.Vec3{}), Scale: snapshot.VecOrNil(t.Scale, runtime.Vec3{X: 1, Y: 1, Z: 1}),
		Instances: make([]snapshot.Instance, 0, len(es.Instances))}
	if es.State == runtime.StatePending {
		snap.State = "pending"
	}
	world, err := h.saveWorld(es.Handle)
	if err != nil {
		return snapshot.Entity{}, err
	}
	snap.World = world
	for _, is := range es.Instances {
		switch h.saveKind(is.Script) {
		case notSaveable:
			if h.opts.SkipNotSaveable {
				continue
			}
			return snapshot.Entity{}, fmt.Errorf("save %s: %w: its instance of %s is of a Go-native script that is not a runtime.Saver", es.Handle, runtime.ErrNotSaveable, is.Script.Name())
		case nativeScript:
			ins, err := saveNative(es.Handle, is)
			if err != nil {
				return snapshot.Entity{}, err
			}
			snap.Instances = append(snap.Instances, ins)
			continue
		}
		s := is.Script.(*Script)
		li := is.Data.(*instance)
		self, err := s.st.selfPlain(li.self)
		if err != nil {
			// A world is saved whole or not at all (docs/snapshot.md): a
			// snapshot without this instance would restore a world
			// that never was.
			who := es.Handle.String()
			if es.Name != "" {
				who = luaerr.Quote(es.Name) + " " + who
			}
			return snapshot.Entity{}, fmt.Errorf("save %s: its instance of %s: %w; nothing was saved", who, s.name, err)
		}
		ins := snapshot.Instance{Seq: is.Seq, Script: s.name, Self: snapshot.SelfJSON{Value: self}, Props: li.props(),
			Faulted: is.Faulted, CreateFailed: is.CreateFailed}
		for _, tm := range li.pending() {
			ts := snapshot.Timer{ID: tm.ID, Fn: tm.Fn, Due: tm.Due, Period: tm.Period}
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
	t := &runtime.Table{Fields: make([]runtime.Field, 0, 4)}
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
		pv, ok := scalarPlain(v)
		if ok {
			// The common case, without the path that only an error
			// needs.
			if err := c.add("", size(v)); err != nil {
				if err == errStopped {
					return nil, err
				}
				return nil, c.add(joinPath("self", pk), 0)
			}
		} else if pv, err = c.toPlain(v, joinPath("self", pk), 1, []*lua.LTable{self}); err != nil {
			return nil, err
		}
		t.Fields = append(t.Fields, runtime.Field{Key: pk, Value: pv})
	}
	var err error
	t.Fields, err = c.withHoles(self, t.Fields, "self")
	return t, err
}

// scalarPlain returns the plain form of a boolean, a number or a string.
func scalarPlain(v lua.LValue) (any, bool) {
	switch x := v.(type) {
	case lua.LBool:
		return bool(x), true
	case lua.LNumber:
		return float64(x), true
	case lua.LString:
		return string(x), true
	}
	return nil, false
}

// entityState checks an entity snapshot and turns it into the runtime's
// form, with the handle it was saved under; each instance's Data is a new
// empty *instance, filled by fill once the entity's handle is known.
// Scripts are loaded on first use (newly loaded ones are added to
// *added). where names the entity in errors ("entities[%d] (%s)", filled
// with n and the snapshot's id).
func (h *Host) entityState(snap *snapshot.Entity, where string, n int, added *[]*Script) (runtime.EntityState, error) {
	fail := func(format string, args ...any) (runtime.EntityState, error) {
		return runtime.EntityState{}, fmt.Errorf("%s: %w", fmt.Sprintf(where, n, snap.ID), fmt.Errorf(format, args...))
	}
	hd, err := runtime.ParseHandleID(snap.ID)
	if err != nil {
		return fail("%w", err)
	}
	if err := checkWorld(snap.World); err != nil {
		return fail("%w", err)
	}
	es := runtime.EntityState{Handle: hd, State: runtime.StateActive, Name: snap.Name, Tags: snap.Tags,
		Transform: runtime.Transform{Position: snap.Position.Or(runtime.Vec3{}), Rotation: snap.Rotation.Or(runtime.Vec3{}), Scale: snap.Scale.Or(runtime.Vec3{X: 1, Y: 1, Z: 1})}}
	switch snap.State {
	case "":
	case "pending":
		es.State = runtime.StatePending
	default:
		return fail("%w: state %q (want \"pending\", or none for an active entity)", runtime.ErrBadSnapshot, snap.State)
	}
	for i := range snap.Instances {
		is := &snap.Instances[i]
		if i > 0 && is.Seq <= snap.Instances[i-1].Seq {
			return fail("instances[%d] (%s): %w: instances must be listed in attach order (seq increasing)", i, is.Script, runtime.ErrBadSnapshot)
		}
		if es.Instances == nil {
			es.Instances = make([]runtime.InstanceState, 0, len(snap.Instances))
		}
		if is.Native {
			ns, err := h.loadNative(is)
			if err != nil {
				return fail("instances[%d]: %w", i, err)
			}
			es.Instances = append(es.Instances, ns)
			continue
		}
		if is.Data != nil {
			return fail("instances[%d] (%s): %w: a Lua instance has self, not data", i, is.Script, runtime.ErrBadSnapshot)
		}
		s := h.scripts[is.Script]
		if s == nil {
			if s, err = h.Load(is.Script); err != nil {
				return fail("instances[%d]: %w: unknown script %q: %w", i, runtime.ErrBadSnapshot, is.Script, err)
			}
			*added = append(*added, s)
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
		es.Instances = append(es.Instances, runtime.InstanceState{Seq: is.Seq, Script: s,
			Faulted: is.Faulted, CreateFailed: is.CreateFailed, Data: &instance{}})
	}
	if err := es.Check(); err != nil {
		return fail("%w", err)
	}
	return es, nil
}

// fill builds the Lua side of the instances of an entity restored or
// imported as e (its Go-native instances have their Data already): self, timers and props, in each script's state, with
// every entity handle in them passed through mapH and every timer's due
// time through shift (from the snapshot's clock to the world's).
func fill(snap *snapshot.Entity, insts []*runtime.Instance, e runtime.Handle, mapH func(runtime.Handle) any, shift func(float64) float64) {
	for i, inst := range insts {
		is := &snap.Instances[i]
		if is.Native {
			continue
		}
		st := inst.Script().(*Script).st
		li := inst.Data.(*instance)
		li.self = st.fromPlain(mapHandles(is.Self.Value, mapH)).(*lua.LTable)
		li.ent = st.entity(e)
		li.setProps(slices.Clone(is.Props))
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
