package luabind

import (
	"bytes"
	"errors"
	"fmt"
	"io/fs"
	"slices"
	"strings"
	"time"

	lua "github.com/yuin/gopher-lua"

	"github.com/luahost/luahost/luabind/internal/watch"
	"github.com/luahost/luahost/runtime"
)

// ReloadError is a hot reload that was refused: the new source does not
// compile, its chunk fails, it does not return a table, or an instance's
// migration failed. The previous version keeps running, untouched.
type ReloadError struct {
	// Script is the script's name.
	Script string
	// Err is the cause; its message starts with file:line where known.
	Err error
}

// Error returns the cause's message and says that the previous version
// keeps running.
func (e *ReloadError) Error() string {
	return fmt.Sprintf("%s (reload refused: the previous version of %s keeps running)", e.Err.Error(), e.Script)
}

// Unwrap returns the cause.
func (e *ReloadError) Unwrap() error { return e.Err }

// As makes every refused reload a *runtime.ScriptError for errors.As, as
// every error the host reports is: the onReload's own when an onReload
// failed, otherwise one for the script's "reload" whose Message is the
// refusal's and whose Err is the cause (a *LoadError: file and line).
func (e *ReloadError) As(target any) bool {
	p, ok := target.(**runtime.ScriptError)
	if !ok {
		return false
	}
	if !errors.As(e.Err, p) {
		se := &runtime.ScriptError{Script: e.Script, Callback: "reload", Message: e.Error(), Err: e.Err}
		var le *LoadError
		if errors.As(e.Err, &le) {
			se.File, se.Line = le.File, le.Line
		}
		*p = se
	}
	return true
}

// migration is one instance's new state, built before anything changes.
type migration struct {
	inst *runtime.Instance
	li   *instance
	next instance
}

// Reload replaces the script called name with source, compile-then-swap:
// the source is compiled and its chunk run in a fresh state;
// every live instance, in schedule order, gets a new self built from the
// new properties with its old data copied over, then the new
// onReload(self, old) if any. Only when every instance migrated does the
// new version replace the old one: the schedule is re-sorted by the new
// priority, event handlers are the new ones, faulted instances get a fresh
// chance (those whose onCreate had failed run the new onCreate), and the
// old state is closed. Otherwise nothing changes and a *ReloadError is
// returned. Reload must be called between frames; a script not loaded yet
// is loaded from source. Options.OnReload hears of every reload of a
// loaded script, applied or refused.
func (h *Host) Reload(name string, source []byte) error {
	if h.rt.Stepping() {
		return fmt.Errorf("reload %s: %w", name, runtime.ErrStepping)
	}
	if h.closed {
		return fmt.Errorf("reload %s: %w", name, runtime.ErrClosed)
	}
	if h.deferred.on {
		return fmt.Errorf("reload %s: another reload is migrating its instances", name)
	}
	s := h.scripts[name]
	if s == nil {
		file, path, err := h.locate(name)
		if err != nil {
			return err
		}
		if _, err = h.add(name, file, path, source); err != nil {
			return err
		}
		h.attachWaiting(name)
		return nil
	}
	start := time.Now()
	next, err := h.build(s, source)
	if err != nil {
		return h.reloaded(s, 0, start, &ReloadError{Script: name, Err: err})
	}
	var migs []migration
	h.building = append(h.building, next)
	defer func() { h.building = h.building[:len(h.building)-1] }()
	h.deferred.on = true
	for _, inst := range h.rt.ScriptInstances(s) {
		// A Go function an onReload called may have destroyed it.
		if !inst.Live() || inst.Detached() {
			continue
		}
		m, err := next.migrate(inst, s.st)
		if err != nil {
			h.deferred.drop(h)
			next.close()
			return h.reloaded(s, 0, start, &ReloadError{Script: name, Err: err})
		}
		migs = append(migs, m)
	}
	h.deferred.on = false
	old := s.st
	s.st = next
	for _, m := range migs {
		*m.li = m.next
	}
	if err := h.rt.ScriptChanged(s); err != nil {
		h.deferred.drop(h)
		return h.reloaded(s, 0, start, err)
	}
	for _, m := range migs {
		h.rt.Retry(m.inst)
	}
	old.close()
	h.reloads++
	s.timing.reload++
	h.publish()
	h.logReload(s, len(migs), time.Since(start))
	h.deferred.commit(h)
	return h.reloaded(s, len(migs), start, nil)
}

// ReloadInfo describes one hot reload of a loaded script, applied or
// refused, for Options.OnReload.
type ReloadInfo struct {
	// Script is the script's name ("ai/patrol").
	Script string
	// File is the script's display path ("scripts/ai/patrol.lua").
	File string
	// Instances is how many live instances migrated to the new version;
	// 0 when the reload was refused.
	Instances int
	// Duration is how long the reload took: compiling, running the
	// chunk, migrating every instance (their onReload included).
	Duration time.Duration
	// Err is nil for an applied reload; for a refused one, the refusal:
	// a *ReloadError, whose Err is the cause (a *LoadError for a source
	// that does not load), the previous version running on.
	Err error
}

// reloaded tells Options.OnReload of the reload of s that started at
// start and returns err.
func (h *Host) reloaded(s *Script, migrated int, start time.Time, err error) error {
	if h.opts.OnReload == nil && len(h.reloadObservers) == 0 {
		return err
	}
	info := ReloadInfo{Script: s.name, File: s.file, Instances: migrated, Duration: time.Since(start), Err: err}
	if h.opts.OnReload != nil {
		h.opts.OnReload(info)
	}
	for _, fn := range h.reloadObservers {
		fn(info)
	}
	return err
}

// ObserveReloads registers fn to receive every hot reload, as
// Options.OnReload does, after it: for a Go package that watches a host
// it did not make (the inspector). Call it on the driving goroutine.
func (h *Host) ObserveReloads(fn func(ReloadInfo)) {
	h.reloadObservers = append(h.reloadObservers, fn)
}

// migrate builds inst's self in the new state st and runs st's onReload on
// it. The old state prev is only read.
//
// Tuned properties: a string key of the new properties whose
// value in the old self still equals prev's default, and which the
// attach's props did not set, is not copied: it keeps the new default.
func (st *state) migrate(inst *runtime.Instance, prev *state) (migration, error) {
	li := inst.Data.(*instance)
	self, err := st.selves.take(st)
	if err != nil {
		return migration{}, st.migrationError(inst, err)
	}
	var old *lua.LTable
	if st.onReload != nil && !inst.CreateFailed() {
		old = st.L.CreateTable(0, 8)
	}
	// One bounded copy for the new self, one for old.
	cs, co := copier{stop: st.host.budget}, copier{stop: st.host.budget}
	for k, v := li.self.Next(lua.LNil); k != lua.LNil; k, v = li.self.Next(k) {
		if _, isFn := v.(*lua.LFunction); isFn {
			continue
		}
		tuned := st.tuned(k, v, prev, li.props())
		if tuned && old == nil {
			continue
		}
		if immutable(k) && immutable(v) {
			// The common case, shared as it is: no copy, no path built.
			if !tuned {
				self.RawSet(k, v)
			}
			if old != nil {
				old.RawSet(k, v)
			}
			continue
		}
		nk, err := cs.adopt(st, k, "self", 0, nil)
		if err != nil {
			return migration{}, st.migrationError(inst, err)
		}
		nv, err := cs.adopt(st, v, joinPath("self", k.String()), 0, nil)
		if err != nil {
			return migration{}, st.migrationError(inst, err)
		}
		if !tuned {
			self.RawSet(nk, nv)
		}
		if old != nil {
			ov, err := co.adopt(st, v, joinPath("old", k.String()), 0, nil)
			if err != nil {
				return migration{}, st.migrationError(inst, err)
			}
			old.RawSet(nk, ov)
		}
	}
	m := migration{inst: inst, li: li, next: instance{self: self, ent: st.entity(inst.Entity()), more: li.more}}
	if old == nil {
		return m, nil
	}
	prevInst, prevEnt := st.enter(inst, &m.next)
	L := st.L
	L.Push(st.onReload)
	L.Push(self)
	L.Push(old)
	L.Push(st.ctx)
	err = st.pcall(3, 0, kindOnReload, "onReload")
	st.leave(prevInst, prevEnt)
	if err != nil {
		if se, ok := err.(*runtime.ScriptError); ok {
			// Not reported through the runtime, which would fill these in.
			se.Entity, se.Frame = inst.Entity(), st.host.rt.Frame()
		}
		return migration{}, err
	}
	return m, nil
}

// tuned reports whether the old self's value v of key k is a tuned
// property: k is a string key of st's properties, the attach's props did
// not set it, and v still equals prev's default.
func (st *state) tuned(k, v lua.LValue, prev *state, propKeys []string) bool {
	ks, ok := k.(lua.LString)
	if !ok || st.props.RawGetString(string(ks)) == lua.LNil || slices.Contains(propKeys, string(ks)) {
		return false
	}
	return samePlain(v, prev.props.RawGetString(string(ks)), 0)
}

// samePlain reports whether two plain Lua values, possibly of different
// states, hold the same data: tables compare by contents, entity values by
// handle.
func samePlain(a, b lua.LValue, depth int) bool {
	switch x := a.(type) {
	case *lua.LTable:
		y, ok := b.(*lua.LTable)
		if !ok || depth >= runtime.MaxPlainDepth {
			return false
		}
		n := 0
		for k, v := x.Next(lua.LNil); k != lua.LNil; k, v = x.Next(k) {
			if !immutable(k) || !samePlain(v, y.RawGet(k), depth+1) {
				return false
			}
			n++
		}
		for k, _ := y.Next(lua.LNil); k != lua.LNil; k, _ = y.Next(k) {
			n--
		}
		return n == 0
	case *lua.LUserData:
		y, ok := b.(*lua.LUserData)
		if !ok {
			return false
		}
		h, ok1 := x.Value.(runtime.Handle)
		g, ok2 := y.Value.(runtime.Handle)
		return ok1 && ok2 && h == g
	}
	return a == b
}

func (st *state) migrationError(inst *runtime.Instance, err error) error {
	return fmt.Errorf("%s: cannot migrate %s: %w", st.script.file, inst, err)
}

// immutable reports whether v is a value states may share: a boolean, a
// number or a string.
func immutable(v lua.LValue) bool {
	switch v.(type) {
	case lua.LBool, lua.LNumber, lua.LString:
		return true
	}
	return false
}

// adopt copies a plain value of another state into st, as a blackboard
// round trip would (values as for the blackboard; entity values
// stay entity values), without the intermediate runtime form. Strings,
// numbers and booleans are immutable and shared as they are. The copy is
// bounded like every copy of plain data.
func (c *copier) adopt(st *state, v lua.LValue, path string, depth int, seen []*lua.LTable) (lua.LValue, error) {
	if err := c.add(path, size(v)); err != nil {
		return nil, err
	}
	switch x := v.(type) {
	case *lua.LNilType, lua.LBool, lua.LNumber, lua.LString:
		return v, nil
	case *lua.LUserData:
		if h, ok := x.Value.(runtime.Handle); ok {
			return st.entity(h), nil
		}
	case *lua.LTable:
		if isVec(x) {
			if v, ok := vecOf(x); ok {
				return st.newVec(v), nil
			}
			return nil, notPlain(path, "a vec3 whose x, y or z is not a number")
		}
		seen, err := enter(x, path, depth, seen)
		if err != nil {
			return nil, err
		}
		out := newCopyOf(st.L, x)
		for k, val := x.Next(lua.LNil); k != lua.LNil; k, val = x.Next(k) {
			if err := c.add(path, size(k)); err != nil {
				return nil, err
			}
			var nk lua.LValue
			switch pk := plainKey(k).(type) {
			case nil:
				return nil, notPlain(path, "a key of type "+k.Type().String())
			case runtime.Handle:
				nk = st.entity(pk)
			default:
				nk = k
			}
			nv, err := c.adopt(st, val, joinPath(path, k.String()), depth+1, seen)
			if err != nil {
				return nil, err
			}
			out.RawSet(nk, nv)
		}
		return out, nil
	}
	return nil, notPlain(path, "a "+v.Type().String())
}

// applyChanges applies a batch of changed files from the script
// directory. Each script reloads at most once per batch: a changed script,
// every script that required a changed module, and, when any file other
// than a loaded script changed, every script whose last reload was refused
// (its new version may need the module just fixed; a retry failing the
// same way is not reported again). Scripts reload in load order. A deleted script keeps running its last good version, with a
// warning.
func (h *Host) applyChanges(changes []watch.Change) {
	sources := make(map[string][]byte)
	want := make(map[string]bool)
	other := false
	for _, c := range changes {
		name := strings.TrimSuffix(c.Path, ".lua")
		if h.waiting[name] != nil && !c.Removed {
			h.retryWaiting(name, c.Source)
			continue
		}
		if s := h.scripts[name]; s != nil {
			if c.Removed {
				h.warnDeleted(s)
				continue
			}
			want[name] = true
			// The mark is left out as at start (readSource).
			sources[name] = bytes.TrimPrefix(c.Source, []byte(byteOrderMark))
		} else {
			other = true
		}
		for _, s := range h.order {
			if s.requires(c.Path) {
				want[s.name] = true
			}
		}
	}
	if other {
		for name := range h.refused {
			want[name] = true
		}
		h.retryAllWaiting()
	}
	for _, s := range h.order {
		if !want[s.name] {
			continue
		}
		src, ok := sources[s.name]
		if !ok {
			var err error
			if src, err = h.readSource(s.path); errors.Is(err, fs.ErrNotExist) {
				h.warnDeleted(s)
				continue
			} else if err != nil {
				h.report(h.reloaded(s, 0, time.Now(), &ReloadError{Script: s.name, Err: err}))
				continue
			}
		}
		if err := h.Reload(s.name, src); err != nil {
			// A retry that fails the same way was reported already.
			if h.refused[s.name] != err.Error() {
				h.report(err)
			}
			h.refused[s.name] = err.Error()
		} else {
			delete(h.refused, s.name)
		}
	}
}

func (h *Host) warnDeleted(s *Script) {
	h.warn(s, s.file+" was deleted; its last good version keeps running")
}

func (h *Host) report(err error) {
	if err != nil {
		h.rt.Report(err)
	}
}

// requires reports whether the script's current version loaded the module
// file rel ("lib/vector.lua").
func (s *Script) requires(rel string) bool {
	for _, m := range s.st.modules {
		if m == rel {
			return true
		}
	}
	return false
}

// roundDuration keeps reload notices short: 1.2ms, 15ms, 340µs.
func roundDuration(d time.Duration) time.Duration {
	switch {
	case d >= 10*time.Millisecond:
		return d.Round(time.Millisecond)
	case d >= time.Millisecond:
		return d.Round(100 * time.Microsecond)
	default:
		return d.Round(time.Microsecond)
	}
}
