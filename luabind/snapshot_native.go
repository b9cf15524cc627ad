package luabind

import (
	"errors"
	"fmt"

	"github.com/luahost/luahost/runtime"
	"github.com/luahost/luahost/snapshot"
)

// Go-native scripts in snapshots and handoffs. An instance of a
// runtime.Saver is saved as its SaveData's plain data, marked native;
// Restore and Import rebuild it through LoadData, finding the script by
// its name among those given to RegisterScript. Entity handles in a
// native instance's data are saved and restored as they are: an import
// does not map them (the script knows where it keeps them).

// ErrScriptVersion means an entity snapshot exported under another
// version of one of its scripts than the importing host runs: Import
// refuses it unless Options.MigrateImports is set.
var ErrScriptVersion = errors.New("script version differs")

// RegisterScript makes the Go-native script s known to Restore and
// Import under its name, so that its saved instances can be rebuilt. Call
// it before restoring or importing. A nil script, an empty name or a name
// given before is refused.
func (h *Host) RegisterScript(s runtime.Saver) error {
	switch {
	case s == nil:
		return errors.New("register script: nil script")
	case s.Name() == "":
		return errors.New("register script: the script has no name")
	case h.natives[s.Name()] != nil:
		return fmt.Errorf("register script %q: already registered", s.Name())
	}
	if h.natives == nil {
		h.natives = make(map[string]runtime.Saver)
	}
	h.natives[s.Name()] = s
	return nil
}

// saveable checks, before any state is copied, that every instance of
// the entities can be saved: a Lua script of this host or a
// runtime.Saver, unless Options.SkipNotSaveable leaves the others out.
// The error wraps runtime.ErrNotSaveable. O(instances).
func (h *Host) saveable(entities []runtime.EntityState) error {
	if h.opts.SkipNotSaveable {
		return nil
	}
	for _, es := range entities {
		for _, is := range es.Instances {
			if h.saveKind(is.Script) == notSaveable {
				return fmt.Errorf("%s: %w: its instance of %s is of a Go-native script that is not a runtime.Saver", es.Handle, runtime.ErrNotSaveable, is.Script.Name())
			}
		}
	}
	return nil
}

type saveKind uint8

const (
	notSaveable saveKind = iota
	luaScript
	nativeScript
)

// saveKind says how an instance of s is saved.
func (h *Host) saveKind(s runtime.Script) saveKind {
	if ls, ok := s.(*Script); ok {
		if ls.host == h {
			return luaScript
		}
		return notSaveable
	}
	if _, ok := s.(runtime.Saver); ok {
		return nativeScript
	}
	return notSaveable
}

// saveNative saves an instance of a runtime.Saver.
func saveNative(e runtime.Handle, is runtime.InstanceState) (snapshot.Instance, error) {
	saved, err := is.Script.(runtime.Saver).SaveData(is.Data)
	if err == nil {
		saved, err = runtime.PlainAt(is.Script.Name(), saved)
	}
	if err != nil {
		return snapshot.Instance{}, fmt.Errorf("save %s: %s: %w", e, is.Script.Name(), err)
	}
	ins := snapshot.Instance{Seq: is.Seq, Script: is.Script.Name(), Native: true, Faulted: is.Faulted, CreateFailed: is.CreateFailed}
	if saved != nil {
		ins.Data = &runtime.PlainJSON{Value: saved}
	}
	return ins, nil
}

// loadNative rebuilds the runtime's state of a saved native instance
// through its registered script's LoadData.
func (h *Host) loadNative(is *snapshot.Instance) (runtime.InstanceState, error) {
	s := h.natives[is.Script]
	if s == nil {
		return runtime.InstanceState{}, fmt.Errorf("%w: unknown Go-native script %q (give it to RegisterScript before restoring or importing)", runtime.ErrBadSnapshot, is.Script)
	}
	if is.Self.Value != nil || len(is.Props) > 0 || len(is.Timers) > 0 {
		return runtime.InstanceState{}, fmt.Errorf("%w: a Go-native instance has data, not self, props or timers", runtime.ErrBadSnapshot)
	}
	var saved any
	if is.Data != nil {
		saved = is.Data.Value
	}
	data, err := s.LoadData(saved)
	if err != nil {
		return runtime.InstanceState{}, fmt.Errorf("%s: load data: %w", is.Script, err)
	}
	return runtime.InstanceState{Seq: is.Seq, Script: s, Faulted: is.Faulted, CreateFailed: is.CreateFailed, Data: data}, nil
}
