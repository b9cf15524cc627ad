package luabind

import (
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"

	lua "github.com/yuin/gopher-lua"

	"github.com/luahost/luahost/luabind/internal/luaerr"
	"github.com/luahost/luahost/runtime"
)

// newCtx builds the state's ctx. It is reused for every
// callback of the state: frame, time and dt are refreshed once a frame;
// the functions act for the current instance. ctx itself is a table
// whose metatable answers reads from st.ctxFields and refuses every
// write (ctx is read-only: a write names the field). ctx.entity is not
// stored until a script of the state reads it: until then the fields'
// metatable answers it from the current instance (a Go call per read);
// from the first read on, every callback's entry and exit stores it in
// ctx itself (showEntity), so that reading it costs what reading a
// table's field does, and states whose scripts never read it (most
// callbacks) pay nothing per callback. A field ctx holds is written
// without __newindex: the compile step turns every assignment to a
// field named entity into a call that refuses it on ctx (compile's
// setEntity).
func (st *state) newCtx() *lua.LTable {
	L := st.L
	fields := L.CreateTable(0, 16)
	fields.RawSetString("frame", lua.LNumber(0))
	fields.RawSetString("time", lua.LNumber(0))
	fields.RawSetString("dt", lua.LNumber(0))
	fields.RawSetString("blackboard", st.newBlackboard())
	for _, f := range []struct {
		name string
		fn   lua.LGFunction
	}{
		{"spawn", st.ctxSpawn},
		{"find", st.ctxFind},
		{"emit", st.ctxEmit},
		{"detach", st.ctxDetach},
		{"log", st.ctxLog},
		{"after", st.ctxAfter},
		{"every", st.ctxEvery},
		{"cancel", st.ctxCancel},
		{"query", st.ctxQuery},
		{"findAll", st.ctxFindAll},
		{"broadcast", st.ctxBroadcast},
	} {
		fields.RawSetString(f.name, L.NewFunction(f.fn))
	}
	entity := L.CreateTable(0, 1)
	entity.RawSetString("__index", L.NewFunction(func(L *lua.LState) int {
		if k, ok := L.Get(2).(lua.LString); ok && k == "entity" && st.cur != nil {
			st.entityRead = true
			st.curEntity = st.entityOf(st.cur, st.cur.Data.(*instance))
			st.showEntity(st.curEntity)
			L.Push(st.curEntity)
			return 1
		}
		L.Push(lua.LNil)
		return 1
	}))
	L.SetMetatable(fields, entity)
	st.ctxFields = fields

	ctx := L.CreateTable(0, 0)
	mt := L.CreateTable(0, 3)
	mt.RawSetString("__index", fields)
	mt.RawSetString("__newindex", L.NewFunction(func(L *lua.LState) int {
		k := L.Get(2)
		if s, ok := k.(lua.LString); ok && (s == "entity" || fields.RawGetString(string(s)) != lua.LNil) {
			L.RaiseError("ctx.%s is read-only", s)
		}
		L.RaiseError("cannot set ctx.%s: ctx is read-only (keep your data in self or the blackboard)", lua.LVAsString(L.ToStringMeta(k)))
		return 0
	}))
	mt.RawSetString("__metatable", lua.LString("ctx"))
	L.SetMetatable(ctx, mt)
	return ctx
}

// entityOf returns the entity value of inst, whose instance data is li,
// making it on first use: an instance whose state never reads ctx.entity
// has none, which saves a userdata per entity.
func (st *state) entityOf(inst *runtime.Instance, li *instance) lua.LValue {
	if li.ent == nil {
		li.ent = st.entity(inst.Entity())
	}
	return li.ent
}

// showEntity makes ctx.entity answer v once a script of the state has
// read ctx.entity; before that it does nothing. It writes ctx's field
// only when it holds another value (one lookup, two map operations more
// when it does). The outermost callback's exit leaves its entity there:
// the state's Lua code runs only in callbacks (the chunk itself runs
// before any), each of which shows its own. What ctx holds is read, not
// remembered: a write through a key computed at run time (ctx[k] = v
// with k == "entity"), which the compile step cannot see, lasts until
// the callback that made it ends.
func (st *state) showEntity(v lua.LValue) {
	if st.entityRead && st.ctx.RawGetString("entity") != v {
		st.ctx.RawSetString("entity", v)
	}
}

// newBlackboard returns the proxy of the runtime's blackboard:
// ctx.blackboard.hp = 7 stores a copy, ctx.blackboard.hp reads a copy. It
// is a userdata, not a table, so that rawset cannot store into the proxy
// itself.
func (st *state) newBlackboard() *lua.LUserData {
	L := st.L
	bb := L.NewUserData()
	mt := L.CreateTable(0, 3)
	mt.RawSetString("__index", L.NewFunction(func(L *lua.LState) int {
		key := L.CheckString(2)
		L.Push(st.fromPlain(st.host.rt.Blackboard().GetPlain(key)))
		return 1
	}))
	mt.RawSetString("__newindex", L.NewFunction(func(L *lua.LState) int {
		key := L.CheckString(2)
		v, err := st.toPlain(L.Get(3), key)
		if err != nil {
			st.raise(L, fmt.Sprintf("blackboard key %s: %s", luaerr.Quote(key), strings.TrimPrefix(err.Error(), runtime.ErrNotPlain.Error()+": ")), err)
		}
		if st.host.world.on {
			st.effect(Effect{Kind: EffectWrite, Name: key, Data: v})
			return 0
		}
		if st.deferring() {
			st.later(func() error { st.host.rt.Blackboard().SetPlain(key, v); return nil })
			return 0
		}
		if pe := catchPanic(func() { st.host.rt.Blackboard().SetPlain(key, v) }); pe != nil {
			st.goPanic(L, "ctx.blackboard", pe)
		}
		return 0
	}))
	mt.RawSetString("__metatable", lua.LString("blackboard"))
	L.SetMetatable(bb, mt)
	return bb
}

// ctx.spawn(spec) creates an entity: spec.name, spec.position,
// spec.rotation, spec.scale (vectors or {x, y, z}), spec.tags (a list of
// strings) and spec.scripts (names, or {script=, props=} tables) are all
// optional. The transform given is the
// entity's initial placement, readable at once (also by the onCreate of
// its scripts), not a write waiting for the flush. The entity is Pending
// until this frame's flush (before the next frame when spawned during
// setup). Returns the entity.
func (st *state) ctxSpawn(L *lua.LState) int {
	h := st.host
	// No spec is an empty one; the table is made only then (OptTable's
	// default would be made at every spawn).
	spec := emptySpec
	if L.Get(1) != lua.LNil {
		spec = L.CheckTable(1)
	}
	type attachment struct {
		name  string
		props any
	}
	var name string
	var tags []string
	placement := runtime.Identity()
	var scripts []attachment
	var bad string
	for k, v := spec.Next(lua.LNil); k != lua.LNil && bad == ""; k, v = spec.Next(k) {
		switch k.String() {
		case "name":
			s, ok := v.(lua.LString)
			switch {
			case !ok:
				bad = "spec.name must be a string"
			case len(s) > maxNameSize:
				bad = fmt.Sprintf("spec.name is longer than %d bytes", maxNameSize)
			case !utf8.ValidString(string(s)):
				bad = "spec.name: " + notText("a name")
			}
			name = string(s)
		case "position", "rotation", "scale":
			vec, err := readVec(v)
			if err != nil {
				bad = fmt.Sprintf("spec.%s: %v", k, err)
			}
			switch k.String() {
			case "position":
				placement.Position = vec
			case "rotation":
				placement.Rotation = vec
			default:
				placement.Scale = vec
			}
		case "tags":
			var err error
			if tags, err = readTags(v); err != nil {
				bad = err.Error()
			}
		case "scripts":
			list, ok := v.(*lua.LTable)
			if !ok {
				bad = "spec.scripts must be a list"
				break
			}
			for i := 1; i <= list.Len() && bad == ""; i++ {
				switch e := list.RawGetInt(i).(type) {
				case lua.LString:
					scripts = append(scripts, attachment{name: string(e)})
				case *lua.LTable:
					sn, ok := e.RawGetString("script").(lua.LString)
					if !ok {
						bad = fmt.Sprintf("spec.scripts[%d].script must be a script name", i)
						break
					}
					p, err := st.toPlain(e.RawGetString("props"), "props")
					if err != nil {
						bad = fmt.Sprintf("spec.scripts[%d].%v", i, err)
						break
					}
					scripts = append(scripts, attachment{name: string(sn), props: p})
				default:
					bad = fmt.Sprintf("spec.scripts[%d] must be a name or {script=, props=}", i)
				}
			}
		default:
			bad = fmt.Sprintf("unknown spec field %s", luaerr.Quote(k.String()))
		}
	}
	if bad != "" {
		L.ArgError(1, bad)
	}
	h.charge(L, spawnWork)
	e := h.rt.SpawnAt(placement)
	if e.IsZero() {
		L.RaiseError("ctx.spawn: %s", runtime.ErrClosed)
	}
	h.spawned(st.cur, e)
	// e was just spawned: counting it cannot fail.
	_ = h.rt.CountEntity(e, &st.script.spawned)
	if name != "" {
		_ = h.rt.SetName(e, name)
	}
	for _, tag := range tags {
		_ = h.rt.Tag(e, tag)
	}
	if h.deferred.on {
		// The entity exists at once, so that the handle can be returned;
		// its scripts wait for the reload to commit.
		h.deferred.spawned = append(h.deferred.spawned, e)
		st.later(func() error {
			for _, a := range scripts {
				if _, err := h.attach(e, a.name, a.props); err != nil {
					_ = h.rt.SetName(e, "")
					_, _ = h.rt.Kill(e)
					return fmt.Errorf("ctx.spawn: %w", err)
				}
			}
			return nil
		})
		L.Push(st.entity(e))
		return 1
	}
	if !h.rt.Stepping() {
		h.setupSpawns = append(h.setupSpawns, e)
	}
	for _, a := range scripts {
		_, err := h.attach(e, a.name, a.props)
		st.stopping(L)
		if err != nil {
			// Leave nothing findable behind, also before the flush.
			_ = h.rt.SetName(e, "")
			_, _ = h.rt.Kill(e)
			st.raise(L, "ctx.spawn: "+err.Error(), err)
		}
	}
	L.Push(st.entity(e))
	return 1
}

// emptySpec is the spec of ctx.spawn() without one: never written, never
// given to Lua.
var emptySpec = &lua.LTable{}

// ctx.find(name) returns the entity with that scene name, or nil.
func (st *state) ctxFind(L *lua.LState) int {
	if st.host.world.on && st.host.zoned.view != nil {
		ids, considered := st.host.zoned.view.query(runtime.Query{Name: L.CheckString(1), Limit: 1})
		st.host.charge(L, queryCost(considered, len(ids)))
		if len(ids) == 0 {
			L.Push(lua.LNil)
		} else {
			L.Push(st.worldValue(ids[0]))
		}
		return 1
	}
	e, ok := st.host.rt.Find(L.CheckString(1))
	if !ok {
		L.Push(lua.LNil)
		return 1
	}
	L.Push(st.entity(e))
	return 1
}

// ctx.emit(event, data [, mask]) dispatches synchronously to every
// observer; returns false when one stopped the dispatch.
func (st *state) ctxEmit(L *lua.LState) int {
	return st.notify(L, "ctx.emit", 1, runtime.Handle{})
}

// notify implements ctx.emit and e:send (what): arguments from index at
// on are (event, data [, mask]). A Go observer's panic is the callback's
// Go panic (gopanic.go). The event name must be a string: a number is
// not coerced, since an event called 42 is always a mistake.
func (st *state) notify(L *lua.LState, what string, at int, target runtime.Handle) int {
	s, ok := L.Get(at).(lua.LString)
	if !ok {
		L.ArgError(at, "event name must be a string, not "+L.Get(at).Type().String())
	}
	name := string(s)
	data, err := st.toPlain(L.Get(at+1), "data")
	if err != nil {
		st.argError(L, at+1, err)
	}
	mask := -1
	if L.Get(at+2) != lua.LNil {
		mask = int(int64(L.CheckNumber(at + 2)))
	}
	if st.host.world.on && target.IsZero() {
		st.effect(Effect{Kind: EffectBroadcast, Name: name, Data: data, Mask: mask})
		L.Push(lua.LTrue)
		return 1
	}
	// data is a fresh conversion: it need not be copied again.
	if st.deferring() {
		st.later(func() error { _, err := st.host.rt.Events().NotifyPlain(target, name, data, mask); return err })
		L.Push(lua.LTrue)
		return 1
	}
	ok, pe, err := st.dispatch(target, name, data, mask)
	if pe != nil {
		st.goPanic(L, what, pe)
	}
	if b := st.host.budget; b != nil && errors.Is(err, runtime.ErrEventDepth) {
		b.StopChain()
	}
	st.stopping(L)
	if err != nil {
		st.raise(L, err.Error(), err)
	}
	L.Push(lua.LBool(ok))
	return 1
}

// dispatch dispatches an event of the calling script; a Go observer's
// panic is returned as pe.
func (st *state) dispatch(target runtime.Handle, name string, data any, mask int) (ok bool, pe *runtime.PanicError, err error) {
	defer func() {
		if v := recover(); v != nil {
			pe = asPanic(v)
		}
	}()
	ok, err = st.host.rt.Events().NotifyPlain(target, name, data, mask)
	return ok, nil, err
}

// ctx.detach() detaches the current instance; its onDestroy runs at the
// frame's end (at once outside a frame).
func (st *state) ctxDetach(L *lua.LState) int {
	if st.cur == nil {
		L.RaiseError("ctx.detach: no instance is running")
	}
	inst := st.cur
	if st.deferring() {
		st.later(func() error { st.host.rt.Detach(inst); return nil })
		return 0
	}
	st.host.rt.Detach(inst)
	st.stopping(L)
	return 0
}
