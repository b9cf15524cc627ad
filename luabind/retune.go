package luabind

import (
	"fmt"

	lua "github.com/yuin/gopher-lua"

	"github.com/luahost/luahost/runtime"
)

// Retune sets self[key] of inst to a copy of next when self[key] still
// holds prev (compared as plain data: tables by contents, entities by
// handle; a nil prev matches a missing key), and reports whether it did.
// It is how an edited attach's props reach an instance, the way a hot
// reload's changed defaults do: a value the instance changed itself is
// kept. next and prev must be plain data (see runtime.Plain); a nil next
// removes the key. Like SetSelf, Retune works between frames only, and
// nothing changes when it fails.
func (h *Host) Retune(inst *runtime.Instance, key string, prev, next any) (bool, error) {
	st, li, err := h.selfOf(inst, "retune")
	if err != nil {
		return false, err
	}
	if h.rt.Stepping() || h.nesting > 0 {
		return false, fmt.Errorf("retune %s of %s: %w", key, inst, runtime.ErrStepping)
	}
	p, err := runtime.PlainAt(joinPath("props", key), prev)
	if err != nil {
		return false, fmt.Errorf("retune of %s: %w", inst, err)
	}
	n, err := runtime.PlainAt(joinPath("props", key), next)
	if err != nil {
		return false, fmt.Errorf("retune of %s: %w", inst, err)
	}
	cur := li.self.RawGetString(key)
	var want lua.LValue = lua.LNil
	if p != nil {
		want = st.fromPlain(p)
	}
	if !samePlain(cur, want, 0) {
		return false, nil
	}
	li.self.RawSetString(key, st.fromPlain(n))
	return true, nil
}
