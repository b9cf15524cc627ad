package luabind

import (
	"github.com/luahost/luahost/luabind/internal/luaerr"
	"github.com/luahost/luahost/runtime"
)

// What onReload does to the world waits
// until the whole reload commits: attach, detach, kill, spawn's scripts,
// emit and send, transform writes and blackboard writes made while a
// reload migrates are recorded, in order, and applied after the swap (so
// an onCreate or a handler they run is the new version's); a refused
// reload drops them, and cancels the entities its onReloads spawned, so
// the world is as it was. The Lua call returns at once what it would
// return now: e:kill() whether the entity can be killed, e:detach(script)
// how many instances it would detach, ctx.emit and e:send true. Go
// functions registered with Register are not deferred: they run at once.
type deferred struct {
	// on is set while a reload migrates.
	on      bool
	ops     []deferredOp
	spawned []runtime.Handle
}

// deferredOp is one recorded side effect and the instance whose onReload
// made it, for the report of its error.
type deferredOp struct {
	st   *state
	inst *runtime.Instance
	do   func() error
}

// deferring reports whether a reload migrates: side effects then go
// through later. Callers test it before they make the closure for later,
// so that the usual path allocates nothing.
func (st *state) deferring() bool { return st.host.deferred.on }

// later records do, a side effect of the running onReload, for the
// reload's commit.
func (st *state) later(do func() error) {
	d := &st.host.deferred
	d.ops = append(d.ops, deferredOp{st: st, inst: st.cur, do: do})
}

// commit applies what the reload's onReloads deferred, in order. An error
// is reported as an error of that onReload; the next ones still apply.
// The entities spawned become Active before the next frame.
func (d *deferred) commit(h *Host) {
	ops, spawned := d.ops, d.spawned
	*d = deferred{}
	h.setupSpawns = append(h.setupSpawns, spawned...)
	for _, op := range ops {
		if err := op.do(); err != nil {
			se := &runtime.ScriptError{Script: op.st.script.name, File: op.st.script.file, Callback: "onReload", Frame: h.rt.Frame(), Message: luaerr.Bound(err.Error()), Err: err}
			if op.inst != nil {
				se.Entity = op.inst.Entity()
			}
			h.rt.Report(se)
		}
	}
}

// drop forgets what a refused reload's onReloads deferred and cancels the
// entities they spawned.
func (d *deferred) drop(h *Host) {
	spawned := d.spawned
	*d = deferred{}
	for _, e := range spawned {
		_ = h.rt.SetName(e, "")
		_, _ = h.rt.Kill(e)
	}
}
