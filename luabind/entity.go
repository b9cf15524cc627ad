package luabind

import (
	"fmt"

	lua "github.com/yuin/gopher-lua"

	"github.com/luahost/luahost/runtime"
)

// entityTypeName names entity userdata in argument errors.
const entityTypeName = "entity"

// entity returns a new entity value of this state for h. Two values of the
// same handle compare equal with ==.
func (st *state) entity(h runtime.Handle) lua.LValue {
	if st.host.world.on {
		if _, ok := WorldID(h); !ok {
			if id := st.host.Identity(h); id != 0 {
				h = WorldHandle(id)
			}
		}
	}
	ud := st.L.NewUserData()
	ud.Value = h
	ud.Metatable = st.entityMT
	return ud
}

// checkEntity returns the handle of argument n, raising an argument error
// when it is not an entity.
func checkEntity(L *lua.LState, n int) runtime.Handle {
	if ud, ok := L.Get(n).(*lua.LUserData); ok {
		if h, ok := ud.Value.(runtime.Handle); ok {
			return h
		}
	}
	L.ArgError(n, entityTypeName+" expected, got "+L.Get(n).Type().String())
	return runtime.Handle{}
}

// live returns the handle of argument 1, raising "stale entity handle
// entity(I:G)" when its entity is gone, and ErrElsewhere when it moved to
// another zone.
func (st *state) live(L *lua.LState) runtime.Handle {
	h := checkEntity(L, 1)
	if !st.host.rt.Alive(h) {
		if z, ok := st.host.elsewhere(h); ok {
			st.moved(L, h, z)
		}
		err := fmt.Errorf("%w %s", runtime.ErrStaleHandle, h)
		st.raise(L, err.Error(), err)
	}
	return h
}

// newEntityType builds the metatable of entity values.
func (st *state) newEntityType() *lua.LTable {
	L := st.L
	methods := map[string]lua.LGFunction{
		"id":          st.entityID,
		"name":        st.entityName,
		"alive":       st.entityAlive,
		"state":       st.entityState,
		"position":    st.getter(runtime.Position),
		"rotation":    st.getter(runtime.Rotation),
		"scale":       st.getter(runtime.Scale),
		"setPosition": st.setter(runtime.Position),
		"setRotation": st.setter(runtime.Rotation),
		"setScale":    st.setter(runtime.Scale),
		"attach":      st.entityAttach,
		"detach":      st.entityDetach,
		"kill":        st.entityKill,
		"revive":      st.entityRevive,
		"send":        st.entitySend,
		"tag":         st.entityTag,
		"untag":       st.entityUntag,
		"hasTag":      st.entityHasTag,
		"tags":        st.entityTags,
		"zone":        st.entityZone,
	}
	if st.host.world.on {
		st.zonedMethods(methods)
	}
	index := L.CreateTable(0, len(methods))
	for name, fn := range methods {
		index.RawSetString(name, L.NewFunction(fn))
	}
	mt := L.CreateTable(0, 4)
	mt.RawSetString("__index", index)
	mt.RawSetString("__eq", L.NewFunction(func(L *lua.LState) int {
		L.Push(lua.LBool(checkEntity(L, 1) == checkEntity(L, 2)))
		return 1
	}))
	mt.RawSetString("__tostring", index.RawGetString("id"))
	mt.RawSetString("__metatable", lua.LString(entityTypeName))
	return mt
}

// e:id() returns the handle's string, "entity(3:1)": a table key for
// entities.
func (st *state) entityID(L *lua.LState) int {
	L.Push(lua.LString(checkEntity(L, 1).String()))
	return 1
}

// e:name() returns the entity's scene name, or nil.
func (st *state) entityName(L *lua.LState) int {
	name, _ := st.host.rt.Name(st.live(L))
	if name == "" {
		L.Push(lua.LNil)
	} else {
		L.Push(lua.LString(name))
	}
	return 1
}

// e:alive() is false once the entity was reaped; true while it lives in
// this zone or, having moved, in another.
func (st *state) entityAlive(L *lua.LState) int {
	h := checkEntity(L, 1)
	alive := st.host.rt.Alive(h)
	if !alive {
		_, alive = st.host.elsewhere(h)
	}
	L.Push(lua.LBool(alive))
	return 1
}

// e:state() returns "pending", "active", "dying", or "dead" for a stale
// handle; "active" for an entity that moved to another zone (only active
// entities move).
func (st *state) entityState(L *lua.LState) int {
	h := checkEntity(L, 1)
	s, err := st.host.rt.State(h)
	if _, ok := st.host.elsewhere(h); err != nil && ok {
		s = runtime.StateActive
	}
	L.Push(lua.LString(s.String()))
	return 1
}

// e:position(), e:rotation(), e:scale() return x, y, z as committed at the
// last flush. A live handle is looked up once: Get's error is the stale
// case, which live then reports.
func (st *state) getter(p runtime.Part) lua.LGFunction {
	return func(L *lua.LState) int {
		v, err := st.host.rt.Get(checkEntity(L, 1), p)
		if err != nil {
			st.live(L)
		}
		L.Push(lua.LNumber(v.X))
		L.Push(lua.LNumber(v.Y))
		L.Push(lua.LNumber(v.Z))
		return 3
	}
}

// e:setPosition(x, y, z), e:setRotation(x, y, z), e:setScale(x, y, z)
// write to the frame's write cache; the last write of a frame is
// committed at its flush. Each also takes one vector, {x, y, z} or
// {x=, y=, z=} instead of three numbers.
func (st *state) setter(p runtime.Part) lua.LGFunction {
	return func(L *lua.LState) int {
		h := st.live(L)
		v := checkXYZ(L, 2)
		if st.deferring() {
			st.later(func() error { return st.host.rt.Set(h, p, v) })
			return 0
		}
		_ = st.host.rt.Set(h, p, v)
		return 0
	}
}

// e:attach(script [, props]) attaches a script; its onCreate runs now.
func (st *state) entityAttach(L *lua.LState) int {
	h := st.live(L)
	name := L.CheckString(2)
	props, err := st.toPlain(L.Get(3), "props")
	if err != nil {
		st.argError(L, 3, err)
	}
	if st.deferring() {
		st.later(func() error { _, err := st.host.attach(h, name, props); return err })
		return 0
	}
	_, err = st.host.attach(h, name, props)
	st.stopping(L)
	if err != nil {
		st.raise(L, err.Error(), err)
	}
	return 0
}

// e:detach(script) detaches that script's instances from the entity and
// returns how many.
func (st *state) entityDetach(L *lua.LState) int {
	h := st.live(L)
	name := L.CheckString(2)
	if st.deferring() {
		st.later(func() error { _, err := st.host.rt.DetachScript(h, name); return err })
		insts, _ := st.host.rt.Instances(h)
		n := 0
		for _, inst := range insts {
			if inst.Script().Name() == name {
				n++
			}
		}
		L.Push(lua.LNumber(n))
		return 1
	}
	n, _ := st.host.rt.DetachScript(h, name)
	st.stopping(L)
	L.Push(lua.LNumber(n))
	return 1
}

// e:kill() judges the entity dead (settled at this frame's flush) and
// returns true, or false when it was already dying, cancelled or gone (a
// stale handle: destroying what is gone is not an error). An entity in
// another zone is an ErrElsewhere error.
func (st *state) entityKill(L *lua.LState) int {
	h := checkEntity(L, 1)
	if z, ok := st.host.elsewhere(h); ok && !st.host.rt.Alive(h) {
		st.moved(L, h, z)
	}
	if st.deferring() {
		st.later(func() error { _, _ = st.host.rt.Kill(h); return nil })
		state, err := st.host.rt.State(h)
		L.Push(lua.LBool(err == nil && (state == runtime.StateActive || state == runtime.StatePending)))
		return 1
	}
	ok, _ := st.host.rt.Kill(h)
	st.stopping(L)
	L.Push(lua.LBool(ok))
	return 1
}

// e:revive() returns a dying entity to active before the flush and
// returns true, or false when it was not dying.
func (st *state) entityRevive(L *lua.LState) int {
	ok, _ := st.host.rt.Revive(st.live(L))
	L.Push(lua.LBool(ok))
	return 1
}

// e:send(event, data [, mask]) is ctx.emit restricted to the entity's own
// instances.
func (st *state) entitySend(L *lua.LState) int {
	return st.notify(L, "send", 2, st.live(L))
}

// newEventType builds the metatable of the ev argument of event handlers:
// ev.name, ev.mask, ev.last and ev:stop(). An ev kept past its handler is
// inert.
func (st *state) newEventType() *lua.LTable {
	L := st.L
	stop := L.NewFunction(func(L *lua.LState) int {
		if ev := checkEvent(L); ev != nil {
			ev.Stop()
		}
		return 0
	})
	mt := L.CreateTable(0, 2)
	mt.RawSetString("__index", L.NewFunction(func(L *lua.LState) int {
		ev := checkEvent(L)
		switch L.CheckString(2) {
		case "stop":
			L.Push(stop)
		case "name":
			if ev == nil {
				L.Push(lua.LNil)
			} else {
				L.Push(lua.LString(ev.Name))
			}
		case "mask":
			if ev == nil {
				L.Push(lua.LNil)
			} else {
				L.Push(lua.LNumber(ev.Mask))
			}
		case "last":
			if ev == nil {
				L.Push(lua.LNil)
			} else {
				// A Go observer's result is not canonical plain data
				// (a map[string]any, an int): canonicalise it first.
				last, err := runtime.Plain(ev.Last)
				if err != nil {
					st.raise(L, "ev.last: "+err.Error(), err)
				}
				L.Push(st.fromPlain(last))
			}
		default:
			L.Push(lua.LNil)
		}
		return 1
	}))
	mt.RawSetString("__metatable", lua.LString("event"))
	return mt
}

func checkEvent(L *lua.LState) *runtime.Event {
	ud, ok := L.Get(1).(*lua.LUserData)
	if !ok {
		L.ArgError(1, "event expected, got "+L.Get(1).Type().String())
	}
	ev, _ := ud.Value.(*runtime.Event)
	return ev
}
