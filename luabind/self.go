package luabind

import (
	"errors"
	"fmt"

	"github.com/luahost/luahost/runtime"
)

// ErrInstanceGone marks a Self or SetSelf of a script instance that was
// destroyed (detached, its entity settled, or the host closed): it has no
// self any more.
var ErrInstanceGone = errors.New("script instance is destroyed")

// Self returns a copy of inst's self as plain data (see runtime.Plain):
// its entity values are runtime.Handle, its vectors runtime.Vec3, its
// tables *runtime.Table. The copy is bounded like every copy of plain
// data (runtime.MaxPlainNodes, runtime.MaxPlainBytes, MaxPlainDepth); a
// self that holds a value with no plain form (a function, a coroutine, a
// cycle) is an error wrapping runtime.ErrNotPlain that names its path
// ("self.onHit: cannot store a function").
//
// Self may be called between frames or from Go code that a callback runs
// (a registered function, an event observer), on the runtime's goroutine.
// It reads faulted instances too, which helps to see why they failed. An
// instance that is destroyed is an error wrapping ErrInstanceGone; an
// instance that is not a Lua script's of this host is an error.
func (h *Host) Self(inst *runtime.Instance) (*runtime.Table, error) {
	st, li, err := h.selfOf(inst, "self")
	if err != nil {
		return nil, err
	}
	v, err := st.toPlain(li.self, "self")
	if err != nil {
		return nil, fmt.Errorf("self of %s: %w", inst, err)
	}
	t, ok := v.(*runtime.Table)
	if !ok {
		return nil, fmt.Errorf("self of %s: %w: self: cannot store a vec3 as a self", inst, runtime.ErrNotPlain)
	}
	return t, nil
}

// SetSelf sets self[key] of inst to a copy of value, which must be plain
// data (see runtime.Plain); a nil value removes the key. Entity handles
// become entity values of the script, runtime.Vec3 becomes a vec3. The
// instance sees the new value in its next callback. Nothing changes when
// SetSelf fails.
//
// SetSelf works between frames only: during a frame, or while a callback
// runs (from a registered function or an observer), it is an error
// wrapping runtime.ErrStepping, since writing another script's state in
// the middle of its frame would break the schedule's order. A faulted
// instance may be written (to repair its state before a reload retries
// it); a destroyed one is an error wrapping ErrInstanceGone.
func (h *Host) SetSelf(inst *runtime.Instance, key string, value any) error {
	st, li, err := h.selfOf(inst, "setSelf")
	if err != nil {
		return err
	}
	if h.rt.Stepping() || h.nesting > 0 {
		return fmt.Errorf("setSelf %s of %s: %w", key, inst, runtime.ErrStepping)
	}
	p, err := runtime.PlainAt(joinPath("self", key), value)
	if err != nil {
		return fmt.Errorf("setSelf of %s: %w", inst, err)
	}
	li.self.RawSetString(key, st.fromPlain(p))
	return nil
}

// selfOf returns the state and Lua instance behind inst, for call.
func (h *Host) selfOf(inst *runtime.Instance, call string) (*state, *instance, error) {
	if inst == nil {
		return nil, nil, fmt.Errorf("%s: nil instance", call)
	}
	s, ok := inst.Script().(*Script)
	li, isLua := inst.Data.(*instance)
	if !ok || !isLua || s.host != h {
		return nil, nil, fmt.Errorf("%s of %s: not an instance of a Lua script of this host", call, inst)
	}
	if h.closed || !inst.Live() || inst.Detached() {
		return nil, nil, fmt.Errorf("%s of %s: %w", call, inst, ErrInstanceGone)
	}
	return s.st, li, nil
}
