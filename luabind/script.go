package luabind

import (
	"strings"

	lua "github.com/yuin/gopher-lua"

	"github.com/luahost/luahost/runtime"
)

// Script is a loaded Lua script: its name (the file's path under the
// script directory, without .lua), its file, and the state its current
// version runs in. It implements runtime.Script and every optional
// callback; a callback the script does not define costs a nil check.
type Script struct {
	host *Host
	name string
	file string
	path string
	st   *state
	// timing is the script's callback counters (stats.go).
	timing timing
	// index is its place in the counters Stats reads.
	index int
	// spawned counts the live entities its callbacks spawned, which the
	// memory ceiling lays at its door (ceiling.go).
	spawned runtime.Tally
}

// Name returns the script's name, such as "ai/patrol".
func (s *Script) Name() string { return s.name }

// File returns the script's display path, such as "scripts/ai/patrol.lua".
func (s *Script) File() string { return s.file }

// Source returns the source of the script's current version, as loaded
// (a saved file that did not load is not it).
func (s *Script) Source() string { return s.st.src }

// CallbackLine returns the first line that runs of the script's callback
// or method name ("onUpdate", "events.damage"), or false when the current
// version has none of that name.
func (s *Script) CallbackLine(name string) (int, bool) {
	st := s.st
	if st == nil || st.table == nil {
		return 0, false
	}
	var fn *lua.LFunction
	if ev, ok := strings.CutPrefix(name, "events."); ok {
		for i, n := range st.eventNames {
			if n == ev && i < len(st.handlers) {
				fn = st.handlers[i]
			}
		}
	} else {
		fn, _ = st.table.RawGetString(name).(*lua.LFunction)
	}
	if fn == nil || fn.Proto == nil || len(fn.Proto.DbgSourcePositions) == 0 {
		return 0, false
	}
	return fn.Proto.DbgSourcePositions[0], true
}

// Priority returns the current version's priority (default 0).
func (s *Script) Priority() int { return s.st.priority }

// Label returns the table's name field (default: the file's base name).
func (s *Script) Label() string { return s.st.label }

// Create runs onCreate(self, ctx).
func (s *Script) Create(inst *runtime.Instance) error {
	st := s.st
	if st.onCreate == nil {
		return nil
	}
	return unblamed(st.callback(inst, st.onCreate, kindOnCreate, "onCreate", 0))
}

// unblamed turns the stop of a nested callback whose outer callback ran
// out of its budget into a normal return: it is not that callback's fault.
func unblamed(err error) error {
	if err == errNested {
		return nil
	}
	return err
}

// Update fires the instance's due timers, then runs onUpdate(self, ctx,
// dt) unless a timer made the instance stop (detached, killed, failed).
// Without due timers it allocates nothing of its own.
func (s *Script) Update(inst *runtime.Instance, dt float64) error {
	st := s.st
	li := inst.Data.(*instance)
	if ts := li.pending(); len(ts) > 0 && ts[0].Due <= st.host.rt.Time()+timerSlack {
		if err := st.fireTimers(inst, li); err != nil {
			return err
		}
		if inst.Faulted() || inst.Detached() {
			return nil
		}
		if s, _ := st.host.rt.State(inst.Entity()); s != runtime.StateActive {
			return nil
		}
	}
	if st.onUpdate == nil {
		return nil
	}
	prev, prevEnt := st.enter(inst, li)
	L := st.L
	L.Push(st.onUpdate)
	L.Push(li.self)
	L.Push(st.ctx)
	L.Push(st.dt)
	err := st.pcall(3, 0, kindOnUpdate, "onUpdate")
	st.leave(prev, prevEnt)
	return err
}

// Destroy runs onDestroy(self, ctx) and drops the instance's timers
// (also any that onDestroy made).
func (s *Script) Destroy(inst *runtime.Instance) error {
	st := s.st
	li := inst.Data.(*instance)
	defer li.setPending(nil)
	if st.onDestroy == nil {
		return nil
	}
	return unblamed(st.callback(inst, st.onDestroy, kindOnDestroy, "onDestroy", 0))
}

// EventNames returns the events the current version handles, sorted.
func (s *Script) EventNames() []string { return s.st.eventNames }
