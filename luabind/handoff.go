package luabind

import (
	"fmt"

	lua "github.com/yuin/gopher-lua"

	"github.com/luahost/luahost/runtime"
	"github.com/luahost/luahost/snapshot"
)

// Handoff: an entity, with its instances, self, tags, name,
// transform and timers, leaves one world and arrives in another that runs
// the same scripts. It leaves without onDestroy and arrives without
// onCreate; the optional onExport(self, ctx) and onImport(self, ctx) run
// instead. Entity values in the state it carries (self and timer data,
// values and keys) that point to an entity of the same batch are mapped
// to that entity's new handle on import; every other one becomes the
// string id of the old handle ("entity(3:1)"), since it names an entity
// of another world.

// Export takes entity e out of the world between frames and returns it
// as a self-contained value: see ExportAll.
func (h *Host) Export(e runtime.Handle) (snapshot.Entity, error) {
	snaps, err := h.ExportAll([]runtime.Handle{e})
	if err != nil {
		return snapshot.Entity{}, err
	}
	return snaps[0], nil
}

// ExportAll takes the entities es out of the world between frames and
// returns their snapshots, in the order given. First every instance that
// is not faulted gets onExport(self, ctx), entity by entity, in schedule
// order (an error is reported and faults the instance, which leaves
// faulted); then every entity is saved; only when all are saved do they
// leave the world: their instances without onDestroy, the entities
// reaped (their handles stale). Each snapshot records the version of each
// of its Lua scripts (Versions), which Import checks. Go-native instances
// are saved as Snapshot saves them. A handle that is stale or given
// twice, an entity that is dying, an instance of a Go-native script that
// is not a runtime.Saver (checked before any onExport runs; the error
// wraps runtime.ErrNotSaveable, unless Options.SkipNotSaveable leaves it
// behind), a self that is not plain data or a call during a frame is an
// error, and no entity leaves. O(the entities' instances and state).
func (h *Host) ExportAll(es []runtime.Handle) ([]snapshot.Entity, error) {
	if err := h.idle("export"); err != nil {
		return nil, err
	}
	seen := make(map[runtime.Handle]bool, len(es))
	var insts []*runtime.Instance
	for _, e := range es {
		state, err := h.rt.SaveEntity(e)
		if err == nil {
			err = h.saveable([]runtime.EntityState{state})
		}
		if err != nil {
			return nil, fmt.Errorf("export: %w", err)
		}
		if seen[e] {
			return nil, fmt.Errorf("export: %s is given twice", e)
		}
		seen[e] = true
	}
	for _, e := range es {
		insts, _ = h.rt.Instances(e)
		h.snapshotCallback(insts, "onExport", func(st *state) *lua.LFunction { return st.onExport })
	}
	snaps := make([]snapshot.Entity, 0, len(es))
	for _, e := range es {
		state, err := h.rt.SaveEntity(e)
		if err != nil {
			return nil, fmt.Errorf("export: after onExport: %w", err)
		}
		snap, err := h.saveEntity(state)
		if err != nil {
			return nil, fmt.Errorf("export: %w", err)
		}
		snap.Time = h.rt.Time()
		snap.Versions = h.versions(state)
		snaps = append(snaps, snap)
	}
	for _, e := range es {
		insts, _ = h.rt.Instances(e)
		if err := h.rt.Evict(e); err != nil {
			return nil, fmt.Errorf("export: %w", err)
		}
		for _, inst := range insts {
			if li, ok := inst.Data.(*instance); ok {
				li.setPending(nil)
			}
		}
	}
	h.publishRuntime()
	return snaps, nil
}

// Import brings an entity snapshot into the world between frames and
// returns its new handle: see ImportAll.
func (h *Host) Import(snap snapshot.Entity) (runtime.Handle, error) {
	hs, err := h.ImportAll([]snapshot.Entity{snap})
	if err != nil {
		return runtime.Handle{}, err
	}
	return hs[0], nil
}

// ImportAll brings entity snapshots (from ExportAll, of this world or
// another running the same scripts) into the world between frames and
// returns their new handles, in the order given. Each arrives in its
// saved state (Pending or Active) with its name, tags, transform and
// instances, attached now in their saved order without onCreate; entity
// values in their self and timer data are mapped (see the handoff rules
// above). Timers keep their ids (the host's next timer ids are moved past
// them) and the time left until they are due. Then every imported instance that is not faulted gets
// onImport(self, ctx), entity by entity, in schedule order. Every
// snapshot is checked (and its scripts loaded) before anything changes: a
// malformed snapshot, an id given twice, a script that does not load or
// one whose version differs from the one the snapshot was exported under
// (an error wrapping ErrScriptVersion; see Options.MigrateImports, whose
// onReload calls run before onImport) is an error and no entity arrives.
// Go-native instances are rebuilt through their registered scripts (see
// RegisterScript).
func (h *Host) ImportAll(snaps []snapshot.Entity) ([]runtime.Handle, error) {
	if err := h.idle("import"); err != nil {
		return nil, err
	}
	if h.rt.Stepping() {
		return nil, fmt.Errorf("import: %w", runtime.ErrStepping)
	}
	var added []*Script
	states := make([]runtime.EntityState, len(snaps))
	old := make(map[runtime.Handle]int, len(snaps))
	for i := range snaps {
		es, err := h.entityState(&snaps[i], "import: entity %d (%s)", i+1, &added)
		if err != nil {
			h.unload(added)
			return nil, err
		}
		if j, dup := old[es.Handle]; dup {
			h.unload(added)
			return nil, fmt.Errorf("import: entities %d and %d both have the id %s", j+1, i+1, snaps[i].ID)
		}
		old[es.Handle] = i
		states[i] = es
		if err := h.checkVersions(&snaps[i], es); err != nil {
			h.unload(added)
			return nil, fmt.Errorf("import: entity %d (%s): %w", i+1, snaps[i].ID, err)
		}
	}
	hs := make([]runtime.Handle, len(snaps))
	for i, es := range states {
		e, err := h.rt.Adopt(es)
		if err != nil {
			// Only a runtime driven from inside a dispatch or closed gets
			// here, before the first entity arrives.
			h.unload(added)
			return nil, err
		}
		hs[i] = e
		h.loadWorld(e, snaps[i].World)
	}
	mapH := func(o runtime.Handle) any {
		if _, ok := WorldID(o); ok && h.world.on {
			return o
		}
		if i, ok := old[o]; ok {
			return hs[i]
		}
		return o.String()
	}
	var all [][]*runtime.Instance
	now := h.rt.Time()
	for i, e := range hs {
		insts, _ := h.rt.Instances(e)
		at := snaps[i].Time
		fill(&snaps[i], insts, e, mapH, func(due float64) float64 { return now + (due - at) })
		for _, is := range snaps[i].Instances {
			for _, ts := range is.Timers {
				h.timerSeq = max(h.timerSeq, ts.ID)
			}
		}
		all = append(all, insts)
	}
	for i, insts := range all {
		h.migrateImported(&snaps[i], insts)
	}
	for _, insts := range all {
		h.snapshotCallback(insts, "onImport", func(st *state) *lua.LFunction { return st.onImport })
	}
	h.publishRuntime()
	return hs, nil
}

// unload forgets scripts loaded for a restore or an import that failed,
// so that a refused one leaves the host as it was.
func (h *Host) unload(scripts []*Script) {
	for _, s := range scripts {
		delete(h.scripts, s.name)
		for i, o := range h.order {
			if o == s {
				h.order = append(h.order[:i], h.order[i+1:]...)
				break
			}
		}
		s.st.close()
	}
	if len(scripts) > 0 {
		h.publish()
	}
}

// versions returns the version of each Lua script of the entity's
// instances, by name; nil when it has none.
func (h *Host) versions(es runtime.EntityState) map[string]string {
	var vs map[string]string
	for _, is := range es.Instances {
		if s, ok := is.Script.(*Script); ok && s.host == h {
			if vs == nil {
				vs = make(map[string]string)
			}
			vs[s.name] = s.st.version
		}
	}
	return vs
}

// checkVersions refuses an entity snapshot that was exported under a
// version of one of its scripts other than the one this host runs,
// unless Options.MigrateImports accepts it. A script the snapshot has no
// version of is not checked.
func (h *Host) checkVersions(snap *snapshot.Entity, es runtime.EntityState) error {
	if h.opts.MigrateImports {
		return nil
	}
	for _, is := range es.Instances {
		s, ok := is.Script.(*Script)
		if !ok {
			continue
		}
		if v, saved := snap.Versions[s.name]; saved && v != s.st.version {
			return fmt.Errorf("%w: %s was exported under version %s of its source, this host runs version %s (set Options.MigrateImports to migrate it through onReload)", ErrScriptVersion, s.name, v, s.st.version)
		}
	}
	return nil
}

// migrateImported runs onReload(self, old, ctx) on each imported Lua
// instance whose script's version differs from the one it was exported
// under (with Options.MigrateImports): self is the saved self, old a copy
// of it. An error is reported and faults the instance, as onImport's.
func (h *Host) migrateImported(snap *snapshot.Entity, insts []*runtime.Instance) {
	for i, inst := range insts {
		s, ok := inst.Script().(*Script)
		if !ok || snap.Instances[i].Native || inst.Faulted() || s.st.onReload == nil {
			continue
		}
		if v, saved := snap.Versions[s.name]; !saved || v == s.st.version {
			continue
		}
		st := s.st
		li := inst.Data.(*instance)
		old := st.fromPlain(snap.Instances[i].Self.Value)
		prev, prevEnt := st.enter(inst, li)
		L := st.L
		L.Push(st.onReload)
		L.Push(li.self)
		L.Push(old)
		L.Push(st.ctx)
		err := st.pcall(3, 0, kindOnReload, "onReload")
		st.leave(prev, prevEnt)
		if err = unblamed(err); err != nil {
			h.rt.Fault(inst, "onReload", err)
		}
	}
}
