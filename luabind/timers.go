package luabind

import (
	"fmt"
	"math"
	"slices"
	"unicode/utf8"

	lua "github.com/yuin/gopher-lua"

	"github.com/luahost/luahost/luabind/internal/compile"
	"github.com/luahost/luahost/luabind/internal/luaerr"
	"github.com/luahost/luahost/runtime"
)

// Timers belong to an instance and count simulated time
// (runtime.Time). They name a function of the script table, looked up
// when they fire, and carry plain data, so a timer is plain data itself
// (a snapshot can save it) and survives a hot reload: the new version's
// function runs.

// MaxTimers is how many pending timers one instance may have; one more
// is an error of the call that makes it (a runaway loop of ctx.after).
const MaxTimers = 10000

// timerSlack absorbs rounding in the sum of dt: with dt = 1/60, thirty
// frames add up to a hair under 0.5, and a timer due at 0.5 fires in the
// 30th frame, not the 31st.
const timerSlack = 1e-9

// timer is one pending timer of an instance.
type timer struct {
	// ID is the timer's id, unique in the host; ids grow with creation,
	// so they also break ties between timers due at the same time.
	ID int64
	// Fn names the function of the script table to call.
	Fn string
	// Due is the simulated time at which it fires next.
	Due float64
	// Period is the period of an every timer; 0 for an after timer.
	Period float64
	// Data is the plain data passed to the function.
	Data any
	// fired is the frame it last fired in (every timers fire at most
	// once a frame).
	fired uint64
}

// timerBefore orders timers by due time, then creation.
func timerBefore(a, b timer) int {
	switch {
	case a.Due < b.Due:
		return -1
	case a.Due > b.Due:
		return 1
	}
	return int(a.ID - b.ID)
}

// addTimer is ctx.after and ctx.every: (secs, fn [, data]).
func (st *state) addTimer(L *lua.LState, name string, every bool) int {
	switch {
	case st.cur == nil:
		L.RaiseError("ctx.%s: no instance is running (call it from a callback)", name)
	case !st.cur.Live():
		L.RaiseError("ctx.%s: the instance is being destroyed, and its timers with it", name)
	}
	secs := float64(L.CheckNumber(1))
	switch {
	case math.IsNaN(secs) || math.IsInf(secs, 0):
		L.ArgError(1, "seconds must be a finite number")
	case every && secs <= 0:
		L.ArgError(1, "the period must be positive")
	case secs < 0:
		L.ArgError(1, "seconds must not be negative")
	}
	fn, ok := L.Get(2).(lua.LString)
	switch {
	case !ok:
		L.ArgError(2, "want the name of a function of the script table, not "+L.Get(2).Type().String())
	case !utf8.ValidString(string(fn)):
		L.ArgError(2, notText("the function's name"))
	}
	data, err := st.toPlain(L.Get(3), "data")
	if err != nil {
		st.argError(L, 3, err)
	}
	li := st.cur.Data.(*instance)
	if len(li.pending()) >= MaxTimers {
		L.RaiseError("ctx.%s: too many timers: this instance has %d pending (the limit)", name, MaxTimers)
	}
	t := timer{ID: st.host.nextTimer(st.cur), Fn: string(fn), Due: st.host.rt.Time() + secs, Data: data}
	if every {
		t.Period = secs
	}
	li.insertTimer(t)
	L.Push(lua.LNumber(t.ID))
	return 1
}

// timerCallback names the callback of a timer calling fn in reports and
// statistics: "timer fn" for a plain name, the name quoted (and cut
// short) for anything else.
func timerCallback(fn string) string {
	if compile.IsName(fn) && len(fn) <= luaerr.MaxQuoted {
		return "timer " + fn
	}
	return "timer " + luaerr.Quote(fn)
}

func (li *instance) insertTimer(t timer) {
	m := li.extra()
	i, _ := slices.BinarySearchFunc(m.timers, t, timerBefore)
	m.timers = slices.Insert(m.timers, i, t)
}

// ctx.after(secs, fn [, data]) calls the script table's function fn as
// fn(self, ctx, data) once, secs simulated seconds from now, and returns
// the timer's id.
func (st *state) ctxAfter(L *lua.LState) int { return st.addTimer(L, "after", false) }

// ctx.every(secs, fn [, data]) calls fn(self, ctx, data) every secs
// simulated seconds until cancelled, and returns the timer's id.
func (st *state) ctxEvery(L *lua.LState) int { return st.addTimer(L, "every", true) }

// ctx.cancel(id) cancels a timer of this instance; it returns true, or
// false when there is no such timer (it fired, was cancelled, or belongs
// to another instance). It costs O(pending timers of the instance), as
// does making one.
func (st *state) ctxCancel(L *lua.LState) int {
	id := L.CheckNumber(1)
	if st.cur == nil {
		L.Push(lua.LFalse)
		return 1
	}
	li := st.cur.Data.(*instance)
	ts := li.pending()
	i := slices.IndexFunc(ts, func(t timer) bool { return float64(t.ID) == float64(id) })
	if i >= 0 {
		li.setPending(slices.Delete(ts, i, i+1))
	}
	L.Push(lua.LBool(i >= 0))
	return 1
}

// fireTimers runs inst's due timers, in its turn of the update phase
// before its onUpdate: in due-time order, ties in creation order. A
// timer created while they fire waits for the next frame, and an every
// timer fires at most once a frame, its next due time the previous one
// plus its period. Firing stops when the instance stops being runnable
// (a timer detached it, killed its entity, or failed).
func (st *state) fireTimers(inst *runtime.Instance, li *instance) error {
	rt := st.host.rt
	now, frame, newest := rt.Time()+timerSlack, rt.Frame(), st.host.lastTimer(inst)
	for {
		ts := li.pending()
		i := slices.IndexFunc(ts, func(t timer) bool { return t.ID <= newest && t.fired != frame })
		if i < 0 || ts[i].Due > now {
			return nil
		}
		t := ts[i]
		li.setPending(slices.Delete(ts, i, i+1))
		if t.Period > 0 {
			t.Due += t.Period
			t.fired = frame
			li.insertTimer(t)
		}
		name := timerCallback(t.Fn)
		fn, ok := st.table.RawGetString(t.Fn).(*lua.LFunction)
		if !ok {
			s := st.script
			return &runtime.ScriptError{Script: s.name, File: s.file, Callback: name,
				Message: fmt.Sprintf("%s: timer %d names %s, which is not a function of the script table", s.file, t.ID, luaerr.Quote(t.Fn))}
		}
		if err := st.callback(inst, fn, kindTimers, name, 0, st.fromPlain(t.Data)); err != nil {
			return err
		}
		if inst.Faulted() || inst.Detached() {
			return nil
		}
		if s, _ := rt.State(inst.Entity()); s != runtime.StateActive {
			return nil
		}
	}
}
