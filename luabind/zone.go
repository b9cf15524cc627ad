package luabind

import (
	"errors"
	"fmt"

	lua "github.com/yuin/gopher-lua"

	"github.com/luahost/luahost/luabind/internal/luaerr"
	"github.com/luahost/luahost/runtime"
)

// zoning is what a host knows of the zones of its world: its
// own zone's number, where entities that left it went, where
// ctx.broadcast goes, and the broadcasts waiting for the next frame.
type zoning struct {
	zone      int
	elsewhere func(runtime.Handle) (int, bool)
	publish   func(event string, data any)
	inbox     []broadcast
	// sent is the size of the data this host's scripts broadcast since
	// its last delivery: held until the next frame (here or by the
	// zones), and counted by the memory measures (measureLua).
	sent int64
}

// broadcast is one ctx.broadcast waiting for its delivery.
type broadcast struct {
	event string
	data  any
}

// SetZone makes the host zone number zone of a zoned world.
// elsewhere answers, for a handle that is no longer alive in this
// runtime, whether its entity lives on in another zone and which: such
// an entity value answers alive() true and zone() that number, and its
// methods that need the entity raise an error that says it moved. nil
// means no entity ever left. Call it before the first frame.
func (h *Host) SetZone(zone int, elsewhere func(runtime.Handle) (int, bool)) {
	h.zoning.zone, h.zoning.elsewhere = zone, elsewhere
}

// OnBroadcast routes ctx.broadcast: fn receives the event and its data
// (fresh plain data, fn's to keep) when a script broadcasts. Without it,
// a broadcast is delivered to this host's own observers at the start of
// its next frame, as a one-zone world does. Zones deliver the world's
// broadcasts to every zone with Broadcast. Under zoned rules a
// broadcast is an Effect instead (OnEffect), and fn is not called.
func (h *Host) OnBroadcast(fn func(event string, data any)) { h.zoning.publish = fn }

// Broadcast queues event, with data (plain data that the host keeps), for
// delivery at the start of the next frame to every observer of event in
// this runtime, Lua handlers and Go observers alike, like an emit with the
// mask -1.
func (h *Host) Broadcast(event string, data any) {
	h.zoning.inbox = append(h.zoning.inbox, broadcast{event, data})
}

// deliver runs at the start of every frame: the broadcasts queued until
// then are dispatched in order. A dispatch that fails (too deep, or a Go
// observer that panicked) is reported and the next one still runs.
func (h *Host) deliver() {
	casts := h.zoning.inbox
	h.zoning.inbox = nil
	h.zoning.sent = 0
	for _, b := range casts {
		var err error
		pe := catchPanic(func() { _, err = h.rt.Events().NotifyPlain(runtime.Handle{}, b.event, b.data, -1) })
		switch {
		case pe != nil:
			// A Go observer panicked: reported with its Go stack; the
			// next broadcast is still delivered.
			h.rt.Report(&runtime.ScriptError{Callback: "broadcast " + luaerr.Quote(b.event), Message: fmt.Sprintf("broadcast %s: an observer's %v", luaerr.Quote(b.event), pe), Traceback: pe.Stack, Err: pe, Frame: h.rt.Frame()})
		case err != nil:
			h.rt.Report(fmt.Errorf("broadcast %s: %w", luaerr.Quote(b.event), err))
		}
	}
	if h.world.on {
		h.deliverEffects()
	}
}

// elsewhere returns the zone that entity e, gone from this runtime, lives
// in now.
func (h *Host) elsewhere(e runtime.Handle) (int, bool) {
	if h.zoning.elsewhere == nil {
		return 0, false
	}
	return h.zoning.elsewhere(e)
}

// ctx.broadcast(event, data) sends event to every zone of the world: each
// zone's observers of event get it at the start of that zone's next
// frame (in a world of one zone, this runtime's, at its next frame).
// Returns nothing.
func (st *state) ctxBroadcast(L *lua.LState) int {
	s, ok := L.Get(1).(lua.LString)
	if !ok {
		L.ArgError(1, "event name must be a string, not "+L.Get(1).Type().String())
	}
	data, err := st.toPlain(L.Get(2), "data")
	if err != nil {
		L.ArgError(2, err.Error())
	}
	h := st.host
	if h.world.on {
		st.effect(Effect{Kind: EffectBroadcast, Name: string(s), Data: data, Mask: -1})
		return 0
	}
	h.zoning.sent += plainBytes(data)
	send := func() error {
		if h.zoning.publish != nil {
			h.zoning.publish(string(s), data)
		} else {
			h.Broadcast(string(s), data)
		}
		return nil
	}
	if st.deferring() {
		st.later(send)
		return 0
	}
	_ = send()
	return 0
}

// e:zone() returns the number of the zone the entity is in (0 in a world
// of one zone), or nil once it is gone.
func (st *state) entityZone(L *lua.LState) int {
	e := checkEntity(L, 1)
	switch z, ok := st.host.elsewhere(e); {
	case st.host.rt.Alive(e):
		L.Push(lua.LNumber(st.host.zoning.zone))
	case ok:
		L.Push(lua.LNumber(z))
	default:
		L.Push(lua.LNil)
	}
	return 1
}

// ErrElsewhere is the error of an entity value's method that needs the
// entity when the entity moved to another zone (or left and came back:
// the value is then out of date).
var ErrElsewhere = errors.New("is in another zone")

// moved raises the error of a method that needs entity e, which moved to
// zone z.
func (st *state) moved(L *lua.LState, e runtime.Handle, z int) {
	err := fmt.Errorf("%s %w now (zone %d): a zone's scripts reach only the entities of their own zone", e, ErrElsewhere, z)
	if z == st.host.zoning.zone {
		err = fmt.Errorf("%s left this zone and came back under a new handle (its old value %w): find it again with ctx.find or ctx.query", e, ErrElsewhere)
	}
	st.raise(L, err.Error(), err)
}
