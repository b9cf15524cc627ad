package luabind

import (
	"cmp"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"unicode/utf8"

	lua "github.com/yuin/gopher-lua"

	"github.com/luahost/luahost/luabind/internal/luaerr"
	"github.com/luahost/luahost/runtime"
)

// Under zoned rules (world.go), what a script does to the world beyond
// its own entity does not depend on where the other entities are:
//
//   - entity values are world handles (WorldHandle), which name an
//     entity by its world identity in every zone and across handoffs;
//   - reads of another entity (e:position(), e:name(), e:tags(),
//     e:alive(), ...) and ctx.find, ctx.findAll and ctx.query answer
//     from the View: the world's committed state at the start of the
//     frame, the same in every zone;
//   - effects on another entity (e:send, e:kill, e:tag, e:untag,
//     e:setPosition and the other setters, e:attach, e:detach),
//     ctx.emit, ctx.broadcast and blackboard writes are Effects,
//     handed to OnEffect and delivered, by Deliver, at the start of the
//     next frame, in the order of their senders' identities, each
//     sender's in the order it made them;
//   - print lines are handed to OnPrint with the identity of the entity
//     whose callback printed them.
//
// A script's own entity (ctx.entity, and any value of it) is read and
// changed at once, as in one world.

// worldBit marks a world handle: runtime slot indexes never reach it.
const worldBit = 1 << 31

// WorldHandle returns the world handle of the entity of identity id
// (below 2^63): the value that stands for the entity in plain data under
// zoned rules, in every zone.
func WorldHandle(id uint64) runtime.Handle {
	return runtime.Handle{Index: worldBit | uint32(id>>32), Gen: uint32(id)}
}

// WorldID returns the identity a world handle names, and false for a
// handle of a runtime.
func WorldID(h runtime.Handle) (uint64, bool) {
	if h.Index&worldBit == 0 {
		return 0, false
	}
	return uint64(h.Index&^worldBit)<<32 | uint64(h.Gen), true
}

// formatWorldID is e:id() of the entity of identity id.
func formatWorldID(id uint64) string { return "entity(#" + strconv.FormatUint(id, 16) + ")" }

// EffectKind says what an Effect does.
type EffectKind uint8

// The kinds of Effect.
const (
	// EffectSend is e:send(Name, Data, Mask) to entity To.
	EffectSend EffectKind = iota + 1
	// EffectKill is e:kill() of entity To.
	EffectKill
	// EffectTag and EffectUntag give or take tag Name.
	EffectTag
	EffectUntag
	// EffectSet writes Vec to the transform's Part.
	EffectSet
	// EffectAttach attaches script Name with props Data.
	EffectAttach
	// EffectDetach detaches the instances of script Name.
	EffectDetach
	// EffectBroadcast is ctx.broadcast or ctx.emit of event Name with
	// Data and Mask, to every zone (To is 0).
	EffectBroadcast
	// EffectWrite is a blackboard write of key Name (Data nil: deleted),
	// to every zone (To is 0).
	EffectWrite
)

// Effect is one effect of a script under zoned rules: made in one
// frame, delivered at the start of the next (see Deliver).
type Effect struct {
	Kind EffectKind
	// To is the identity of the entity it acts on; 0 for the whole
	// world (broadcasts and blackboard writes).
	To uint64
	// From is the identity of the entity whose callback made it (0:
	// code outside any entity's callback), Seq its place among the
	// sender host's effects.
	From, Seq uint64
	Name      string
	Data      any
	Mask      int
	Part      runtime.Part
	Vec       runtime.Vec3
}

// OnEffect routes the host's effects under zoned rules: fn receives each
// as it is made (its Data fresh plain data, fn's to keep). Without it,
// the host delivers its effects to itself at the start of its next
// frame, as a world of one zone does.
func (h *Host) OnEffect(fn func(Effect)) { h.zoned.route = fn }

// OnPrint routes what the host's scripts print under zoned rules: fn
// receives each line, without its newline, and the identity of the
// entity whose callback printed it (0 outside any). Without it, lines
// are written to Options.Stdout.
func (h *Host) OnPrint(fn func(from uint64, line string)) { h.zoned.print = fn }

// Deliver queues effects for the start of the host's next frame, where
// they are applied in the order of (From, Seq); an effect on an entity
// that is not alive in this runtime then does nothing. Broadcasts reach
// every observer of the runtime, Go observers too.
func (h *Host) Deliver(effects []Effect) { h.zoned.inbox = append(h.zoned.inbox, effects...) }

// zonedRules is the host's part in the zoned rules beyond identities:
// where effects and lines go, the effects waiting for the next frame,
// and the view.
type zonedRules struct {
	route func(Effect)
	print func(from uint64, line string)
	inbox []Effect
	seq   uint64
	view  *View
	// viewSet is set once SetView gave the view: until then, the host
	// builds its own at the start of every frame.
	viewSet bool
	// all is AppendView's buffer of the runtime's entities.
	all []runtime.Handle
}

// effect hands a script's effect to the route, or to the host's own
// next frame.
func (st *state) effect(e Effect) {
	h := st.host
	e.From = st.from()
	h.zoned.seq++
	e.Seq = h.zoned.seq
	if h.zoned.route != nil {
		h.zoned.route(e)
		return
	}
	h.zoned.inbox = append(h.zoned.inbox, e)
}

// from is the identity of the entity whose callback runs in st, or 0.
func (st *state) from() uint64 {
	if st.cur == nil {
		return 0
	}
	return st.host.Identity(st.cur.Entity())
}

// deliverEffects applies the effects queued for this frame, in (From,
// Seq) order. A failure is reported and the next effect still applies.
func (h *Host) deliverEffects() {
	effects := h.zoned.inbox
	h.zoned.inbox = nil
	slices.SortStableFunc(effects, func(a, b Effect) int {
		if c := cmp.Compare(a.From, b.From); c != 0 {
			return c
		}
		return cmp.Compare(a.Seq, b.Seq)
	})
	for _, e := range effects {
		if err := h.apply(e); err != nil {
			h.rt.Report(err)
		}
	}
}

// apply applies one delivered effect.
func (h *Host) apply(e Effect) error {
	rt := h.rt
	switch e.Kind {
	case EffectBroadcast:
		return h.notifyAll(runtime.Handle{}, e.Name, e.Data, e.Mask, "broadcast")
	case EffectWrite:
		rt.Blackboard().SetPlain(e.Name, e.Data)
		return nil
	}
	to, ok := h.ByIdentity(e.To)
	if !ok {
		return nil
	}
	switch e.Kind {
	case EffectSend:
		return h.notifyAll(to, e.Name, e.Data, e.Mask, "send")
	case EffectKill:
		_, err := rt.Kill(to)
		return err
	case EffectTag:
		if tags, _ := rt.Tags(to); len(tags) >= maxTags && !rt.HasTag(to, e.Name) {
			return fmt.Errorf("tag %s: %s has %d tags, the most scripts may give one", luaerr.Quote(e.Name), formatWorldID(e.To), maxTags)
		}
		return rt.Tag(to, e.Name)
	case EffectUntag:
		return rt.Untag(to, e.Name)
	case EffectSet:
		return rt.Set(to, e.Part, e.Vec)
	case EffectAttach:
		_, err := h.attach(to, e.Name, e.Data)
		return err
	case EffectDetach:
		_, err := rt.DetachScript(to, e.Name)
		return err
	}
	return fmt.Errorf("effect of unknown kind %d", e.Kind)
}

// notifyAll dispatches a delivered event; a Go observer's panic is
// reported with its stack.
func (h *Host) notifyAll(to runtime.Handle, event string, data any, mask int, what string) error {
	var err error
	pe := catchPanic(func() { _, err = h.rt.Events().NotifyPlain(to, event, data, mask) })
	if pe != nil {
		return &runtime.ScriptError{Callback: what + " " + luaerr.Quote(event), Message: fmt.Sprintf("%s %s: an observer's %v", what, luaerr.Quote(event), pe), Traceback: pe.Stack, Err: pe, Frame: h.rt.Frame()}
	}
	if err != nil {
		return fmt.Errorf("%s %s: %w", what, luaerr.Quote(event), err)
	}
	return nil
}

// print is the state's print: under zoned rules with OnPrint, the line
// goes there with the identity of the entity printing it.
func (st *state) print(L *lua.LState) int {
	h := st.host
	if !h.world.on || h.zoned.print == nil {
		return h.luaPrint(L)
	}
	h.zoned.print(st.from(), h.printLine(L, "print"))
	return 0
}

// ref is what an entity value names under zoned rules: an entity of
// identity id, alive in this runtime as local (zero when it is not), the
// current callback's own entity when self, and its committed state in
// the view (nil when the view does not hold it).
type ref struct {
	id    uint64
	local runtime.Handle
	self  bool
	seen  *ViewEntity
}

// resolve returns what entity value argument n names. The callback's
// own entity, the common case, costs no lookup in the view.
func (st *state) resolve(L *lua.LState, n int) ref {
	id := st.host.worldIDOf(checkEntity(L, n))
	if st.cur != nil && id == st.host.Identity(st.cur.Entity()) {
		return ref{id: id, local: st.cur.Entity(), self: true}
	}
	r := ref{id: id}
	if e, ok := st.host.ByIdentity(id); ok {
		r.local = e
	}
	r.seen = st.host.zoned.view.Get(id)
	return r
}

// zonedMethods wraps the entity methods for zoned rules: on the
// callback's own entity, and for reads of an entity of this runtime the
// view does not hold yet (spawned this frame), each runs as in one world
// on the entity's handle; reads of other entities answer from the view,
// effects on them become Effects.
func (st *state) zonedMethods(methods map[string]lua.LGFunction) {
	reads := map[string]lua.LGFunction{
		"id":       st.zonedID,
		"name":     st.zonedName,
		"alive":    st.zonedAlive,
		"state":    st.zonedState,
		"position": st.zonedGet(runtime.Position),
		"rotation": st.zonedGet(runtime.Rotation),
		"scale":    st.zonedGet(runtime.Scale),
		"hasTag":   st.zonedHasTag,
		"tags":     st.zonedTags,
		"zone":     st.zonedZone,
	}
	effects := map[string]lua.LGFunction{
		"setPosition": st.zonedSet(runtime.Position),
		"setRotation": st.zonedSet(runtime.Rotation),
		"setScale":    st.zonedSet(runtime.Scale),
		"attach":      st.zonedAttach,
		"detach":      st.zonedDetach,
		"kill":        st.zonedKill,
		"revive":      st.zonedRevive,
		"send":        st.zonedSend,
		"tag":         st.zonedTag("tag", EffectTag),
		"untag":       st.zonedTag("untag", EffectUntag),
	}
	for name, fn := range methods {
		local := fn
		if r, ok := reads[name]; ok {
			methods[name] = func(L *lua.LState) int {
				ref := st.resolve(L, 1)
				if ref.self || ref.seen == nil && !ref.local.IsZero() {
					if name == "id" {
						return r(L)
					}
					return st.onLocal(L, ref.local, local)
				}
				return r(L)
			}
			continue
		}
		if e, ok := effects[name]; ok {
			methods[name] = func(L *lua.LState) int {
				ref := st.resolve(L, 1)
				if ref.self {
					return st.onLocal(L, ref.local, local)
				}
				return e(L)
			}
		}
	}
}

// onLocal runs method fn with argument 1 replaced by a value of the
// runtime handle e. The callback's own entity has one such value per
// instance, made on first use (boxing a handle allocates).
func (st *state) onLocal(L *lua.LState, e runtime.Handle, fn lua.LGFunction) int {
	var ud *lua.LUserData
	if st.cur != nil && st.cur.Entity() == e {
		li := st.cur.Data.(*instance)
		m := li.extra()
		if m.local == nil {
			m.local = L.NewUserData()
			m.local.Value, m.local.Metatable = e, st.entityMT
		}
		ud = m.local
	} else {
		ud = L.NewUserData()
		ud.Value, ud.Metatable = e, st.entityMT
	}
	L.Replace(1, ud)
	return fn(L)
}

// stale raises the error of a method that needs an entity that is gone.
func (st *state) stale(L *lua.LState, id uint64) {
	err := fmt.Errorf("%w %s", runtime.ErrStaleHandle, formatWorldID(id))
	st.raise(L, err.Error(), err)
}

// seen returns the view's entry of argument 1, raising the stale error
// when the entity is gone.
func (st *state) seenEntity(L *lua.LState) (ref, *ViewEntity) {
	r := st.resolve(L, 1)
	if r.seen == nil {
		st.stale(L, r.id)
	}
	return r, r.seen
}

func (st *state) zonedID(L *lua.LState) int {
	L.Push(lua.LString(formatWorldID(st.resolve(L, 1).id)))
	return 1
}

func (st *state) zonedName(L *lua.LState) int {
	_, v := st.seenEntity(L)
	if v.Name == "" {
		L.Push(lua.LNil)
	} else {
		L.Push(lua.LString(v.Name))
	}
	return 1
}

func (st *state) zonedAlive(L *lua.LState) int {
	L.Push(lua.LBool(st.resolve(L, 1).seen != nil))
	return 1
}

func (st *state) zonedState(L *lua.LState) int {
	s := runtime.StateDead
	if st.resolve(L, 1).seen != nil {
		s = runtime.StateActive
	}
	L.Push(lua.LString(s.String()))
	return 1
}

func (st *state) zonedZone(L *lua.LState) int {
	if v := st.resolve(L, 1).seen; v != nil {
		L.Push(lua.LNumber(v.Zone))
	} else {
		L.Push(lua.LNil)
	}
	return 1
}

func (st *state) zonedGet(p runtime.Part) lua.LGFunction {
	return func(L *lua.LState) int {
		_, v := st.seenEntity(L)
		x := v.part(p)
		L.Push(lua.LNumber(x.X))
		L.Push(lua.LNumber(x.Y))
		L.Push(lua.LNumber(x.Z))
		return 3
	}
}

func (st *state) zonedHasTag(L *lua.LState) int {
	_, v := st.seenEntity(L)
	_, found := slices.BinarySearch(v.Tags, checkTag(L, 2))
	L.Push(lua.LBool(found))
	return 1
}

func (st *state) zonedTags(L *lua.LState) int {
	_, v := st.seenEntity(L)
	t := L.CreateTable(len(v.Tags), 0)
	for _, tag := range v.Tags {
		t.Append(lua.LString(tag))
	}
	L.Push(t)
	return 1
}

// alive returns argument 1's ref, raising the stale error when the
// entity is neither in the view nor in this runtime.
func (st *state) target(L *lua.LState) ref {
	r := st.resolve(L, 1)
	if r.seen == nil && r.local.IsZero() {
		st.stale(L, r.id)
	}
	return r
}

func (st *state) zonedSet(p runtime.Part) lua.LGFunction {
	return func(L *lua.LState) int {
		r := st.target(L)
		st.effect(Effect{Kind: EffectSet, To: r.id, Part: p, Vec: checkXYZ(L, 2)})
		return 0
	}
}

func (st *state) zonedAttach(L *lua.LState) int {
	r := st.target(L)
	name := L.CheckString(2)
	props, err := st.toPlain(L.Get(3), "props")
	if err != nil {
		st.argError(L, 3, err)
	}
	st.effect(Effect{Kind: EffectAttach, To: r.id, Name: name, Data: props})
	return 0
}

// e:detach(script) on another entity returns how many instances of the
// script it had at the start of the frame.
func (st *state) zonedDetach(L *lua.LState) int {
	r := st.target(L)
	name := L.CheckString(2)
	n := 0
	if r.seen != nil {
		for _, s := range r.seen.Scripts {
			if s == name {
				n++
			}
		}
	}
	st.effect(Effect{Kind: EffectDetach, To: r.id, Name: name})
	L.Push(lua.LNumber(n))
	return 1
}

// e:kill() of another entity returns whether it was alive at the start
// of the frame (or spawned during it); the kill is delivered at the
// start of the next frame.
func (st *state) zonedKill(L *lua.LState) int {
	r := st.resolve(L, 1)
	alive := r.seen != nil || !r.local.IsZero()
	if alive {
		st.effect(Effect{Kind: EffectKill, To: r.id})
	}
	L.Push(lua.LBool(alive))
	return 1
}

// ErrNotOwn is the error of e:revive() on another entity under zoned
// rules: a kill of it is only delivered at the next frame.
var ErrNotOwn = errors.New("works only on the callback's own entity in a zoned world")

func (st *state) zonedRevive(L *lua.LState) int {
	err := fmt.Errorf("revive %s: %w", formatWorldID(st.resolve(L, 1).id), ErrNotOwn)
	st.raise(L, err.Error(), err)
	return 0
}

func (st *state) zonedSend(L *lua.LState) int {
	r := st.target(L)
	s, ok := L.Get(2).(lua.LString)
	if !ok {
		L.ArgError(2, "event name must be a string, not "+L.Get(2).Type().String())
	}
	data, err := st.toPlain(L.Get(3), "data")
	if err != nil {
		st.argError(L, 3, err)
	}
	mask := -1
	if L.Get(4) != lua.LNil {
		mask = int(int64(L.CheckNumber(4)))
	}
	st.effect(Effect{Kind: EffectSend, To: r.id, Name: string(s), Data: data, Mask: mask})
	L.Push(lua.LTrue)
	return 1
}

func (st *state) zonedTag(what string, kind EffectKind) lua.LGFunction {
	return func(L *lua.LState) int {
		r := st.target(L)
		tag := checkTag(L, 2)
		switch {
		case len(tag) > maxTagSize:
			L.ArgError(2, fmt.Sprintf("tag longer than %d bytes", maxTagSize))
		case !utf8.ValidString(tag):
			L.ArgError(2, notText("the "+what))
		}
		st.effect(Effect{Kind: kind, To: r.id, Name: tag})
		return 0
	}
}

// zonedQuery answers ctx.query, ctx.findAll and ctx.find from the view,
// with the entities of this runtime spawned this frame that the view
// does not hold yet left out (as a query in one world leaves out
// pending entities). Before the first view (during setup, before the
// first frame) it answers from this runtime's entities.
func (st *state) zonedQuery(L *lua.LState, q runtime.Query) {
	if st.host.zoned.view == nil {
		st.pushQuery(L, q)
		return
	}
	ids, considered := st.host.zoned.view.query(q)
	st.host.charge(L, queryCost(considered, len(ids)))
	t := L.CreateTable(len(ids), 0)
	for _, id := range ids {
		t.Append(st.worldValue(id))
	}
	L.Push(t)
}

// worldValue returns the entity value of identity id.
func (st *state) worldValue(id uint64) lua.LValue {
	ud := st.L.NewUserData()
	ud.Value = WorldHandle(id)
	ud.Metatable = st.entityMT
	return ud
}

// nearOf returns the position of the entity of handle h (a world
// handle, or one of this runtime) for ctx.query's near under zoned rules.
func (st *state) nearOf(h runtime.Handle) (runtime.Vec3, bool) {
	id := st.host.worldIDOf(h)
	if v := st.host.zoned.view.Get(id); v != nil {
		return v.Transform.Position, true
	}
	if e, ok := st.host.ByIdentity(id); ok {
		p, err := st.host.rt.Get(e, runtime.Position)
		return p, err == nil
	}
	return runtime.Vec3{}, false
}

// worldIDOf returns the identity handle h names: a world handle's, or
// that of an entity of this runtime.
func (h *Host) worldIDOf(e runtime.Handle) uint64 {
	if id, ok := WorldID(e); ok {
		return id
	}
	return h.Identity(e)
}
