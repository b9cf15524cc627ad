package luabind

import (
	"math"
	"slices"

	lua "github.com/yuin/gopher-lua"

	"github.com/luahost/luahost/luabind/internal/luaerr"
	"github.com/luahost/luahost/runtime"
)

// delivery is what a state reuses from one event delivery to the next, so
// that delivering number data allocates nothing: the ev
// userdata of each nesting depth, the Lua value of the last scalar data
// delivered (numbers and strings are immutable, so one boxed value serves
// every handler of the state), and the last handler looked up.
type delivery struct {
	evs   []*lua.LUserData
	depth int
	// num is the last number delivered (0 before any), bits its bits;
	// str the last string.
	num  lua.LValue
	bits uint64
	str  lua.LValue
	name string
	fn   *lua.LFunction
}

// HandleEvent runs the current version's handler of ev.Name:
// handler(self, ctx, data, ev). The handlers are the functions the
// script's events table held when its chunk returned it, at load or at
// the hot reload that made the current version; assigning to the table
// later changes nothing, as for onUpdate. Its result, plain data, becomes
// the next observer's ev.last. The ev a handler gets is only valid during
// its call: the same userdata serves the state's next delivery.
func (s *Script) HandleEvent(inst *runtime.Instance, ev *runtime.Event) (any, error) {
	st := s.st
	fn := st.handler(ev.Name)
	if fn == nil {
		return ev.Last, nil
	}
	li := inst.Data.(*instance)
	ud := st.delivery.enter(st)
	ud.Value = ev
	data := st.delivery.num
	if x, ok := ev.Data.(float64); !ok || math.Float64bits(x) != st.delivery.bits {
		data = st.eventData(ev.Data)
	}
	prev, prevEnt := st.enter(inst, li)
	L := st.L
	L.Push(fn)
	L.Push(li.self)
	L.Push(st.ctx)
	L.Push(data)
	L.Push(ud)
	err := st.pcallAs(4, 1, kindEvents, "events.", ev.Name)
	st.leave(prev, prevEnt)
	ud.Value = nil
	st.delivery.depth--
	if err == errNested {
		return ev.Last, nil
	}
	if err != nil {
		return nil, err
	}
	ret := L.Get(-1)
	L.Pop(1)
	if ret == lua.LNil {
		return nil, nil
	}
	v, err := st.copyResult(ret)
	if err != nil {
		return nil, &runtime.ScriptError{Script: s.name, File: s.file, Callback: "events." + ev.Name, Message: s.file + ": event handler " + ev.Name + " returned " + luaerr.Bound(err.Error()), Err: err}
	}
	return v, nil
}

// enter returns the ev userdata of the next nesting depth.
func (d *delivery) enter(st *state) *lua.LUserData {
	if d.depth == len(d.evs) {
		if d.num == nil {
			// The zero bits stand for 0 from the first delivery on.
			d.num = lua.LNumber(0)
		}
		ud := st.L.NewUserData()
		ud.Metatable = st.eventMT
		d.evs = append(d.evs, ud)
	}
	d.depth++
	return d.evs[d.depth-1]
}

// handler returns the handler of the event name, or nil. The last one
// found is kept: a dispatch asks every instance of a script for the same
// name.
func (st *state) handler(name string) *lua.LFunction {
	if fn := st.delivery.fn; fn != nil && name == st.delivery.name {
		return fn
	}
	return st.findHandler(name)
}

// findHandler is handler's search.
func (st *state) findHandler(name string) *lua.LFunction {
	i, ok := slices.BinarySearch(st.eventNames, name)
	if !ok {
		return nil
	}
	d := &st.delivery
	d.name, d.fn = name, st.handlers[i]
	return d.fn
}

// eventData returns event data as a Lua value, reusing the last one for
// the same number (bit for bit: -0 and NaN too) or string. HandleEvent
// checks for the last number itself.
func (st *state) eventData(v any) lua.LValue {
	d := &st.delivery
	switch x := v.(type) {
	case float64:
		d.num, d.bits = lua.LNumber(x), math.Float64bits(x)
		return d.num
	case string:
		if s, ok := d.str.(lua.LString); !ok || string(s) != x {
			d.str = lua.LString(x)
		}
		return d.str
	}
	return st.fromPlain(v)
}

// copyResult copies a handler's result as plain data. The copy is the
// handler's work: when it would take what is left of the budget of the
// callback that emitted (a table shared at millions of places), the copy
// stops, its work is refunded to that callback, and it is the handler's
// error, never the emitter's.
func (st *state) copyResult(ret lua.LValue) (any, error) {
	b := st.host.budget
	if b == nil {
		return st.toPlain(ret, "result")
	}
	before := b.Count()
	v, err := st.toPlain(ret, "result")
	if err == errStopped && b.Stopping() {
		b.Refund(before)
		if !b.Stopping() {
			return nil, errResultTooLarge{}
		}
	}
	return v, err
}

// errResultTooLarge is a handler's error when its result could not be
// copied within what was left of the emitter's budget; it matches
// ErrBudget.
type errResultTooLarge struct{}

func (errResultTooLarge) Error() string {
	return "a result too large to copy within the budget left to its emitter"
}

func (errResultTooLarge) Is(target error) bool { return target == ErrBudget }
