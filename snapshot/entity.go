package snapshot

import (
	"crypto/sha256"
	"encoding/hex"
	"fmt"

	"github.com/luahost/luahost/runtime"
)

// Entity is one entity with everything that belongs to it: its
// lifecycle state, name, tags, committed transform and every
// live instance with its script's state. It is a self-contained value: a
// world snapshot lists its entities in this form, and Export and Import
// move one from a world to another. Its JSON form is in docs/snapshot.md.
type Entity struct {
	// ID is the entity's handle where it was saved, "INDEX:GEN".
	ID string `json:"id"`
	// State is "pending" for a Pending entity; empty for an Active one.
	State string `json:"state,omitempty"`
	// Name is the entity's scene name, if any.
	Name string `json:"name,omitempty"`
	// Tags are the entity's tags, sorted.
	Tags []string `json:"tags,omitempty"`
	// Position, Rotation and Scale are the committed transform; nil for
	// the default (0, 0, 0; 0, 0, 0; 1, 1, 1).
	Position *Vec `json:"position,omitempty"`
	Rotation *Vec `json:"rotation,omitempty"`
	Scale    *Vec `json:"scale,omitempty"`
	// Time is the world's simulated time when the entity was exported:
	// its timers' due times are on that clock, and an import moves them
	// to the importing world's clock. A world snapshot leaves it out
	// (its entities share the world's time).
	Time float64 `json:"time,omitempty"`
	// Versions are, for each Lua script of its instances, the version
	// of the script's source it was exported under (see Version): an
	// import into a host that runs another version refuses it, or
	// migrates it when asked to. A world snapshot leaves them out (its
	// entities are restored with the world's scripts).
	Versions map[string]string `json:"versions,omitempty"`
	// Instances are the live instances in attach order.
	Instances []Instance `json:"instances"`
	// World is what a host under zoned rules keeps of the entity beyond
	// its runtime: its world-wide identity, its random stream and how
	// many entities its scripts spawned. Other hosts leave it out.
	World *WorldEntity `json:"world,omitempty"`
}

// WorldEntity is an entity's part in a zoned world (see Entity.World).
type WorldEntity struct {
	// ID is the entity's world-wide identity: the same on every zone and
	// across handoffs, never 0.
	ID uint64 `json:"id,string"`
	// Random is the state of the entity's math.random stream, base64.
	Random string `json:"random"`
	// Spawned is how many entities the entity's scripts spawned: the
	// next one's identity derives from it.
	Spawned uint64 `json:"spawned,omitempty"`
	// Timers is the id of the last timer the entity's scripts made
	// (timer ids count per entity under zoned rules).
	Timers int64 `json:"timers,omitempty"`
}

// Version returns the version of a script's source as entity snapshots
// record it: the first 8 bytes of its SHA-256, in hex (16 digits).
func Version(src []byte) string {
	sum := sha256.Sum256(src)
	return hex.EncodeToString(sum[:8])
}

// Instance is one live instance: of a Lua script, with its self, props
// and timers; or of a Go-native script (a runtime.Saver), with Native set
// and its Data.
type Instance struct {
	// Seq is the instance's attach sequence number where it was saved:
	// its place in attach order, which breaks priority ties.
	Seq uint64 `json:"seq"`
	// Script is the script's name.
	Script string `json:"script"`
	// Native marks an instance of a Go-native script: Data holds what
	// its SaveData returned, and Self, Props and Timers are empty.
	Native bool `json:"native,omitempty"`
	// Data is a Go-native instance's state, as plain data; nil (left
	// out) for a Lua instance, and for a Go-native one whose state is
	// nil.
	Data *runtime.PlainJSON `json:"data,omitempty"`
	// Self is the instance's self as plain data (a *runtime.Table);
	// functions stored in self's top level are code, not data, and are
	// left out, as a hot reload leaves them out. Its tables also hold the
	// keys the script removed (see SelfJSON). A Go-native instance has
	// none (left out of the document).
	Self SelfJSON `json:"self,omitzero"`
	// Props are the top-level keys the attach's props set: a hot reload
	// never gives them a new default.
	Props []string `json:"props,omitempty"`
	// Timers are the pending timers, by due time then id.
	Timers []Timer `json:"timers,omitempty"`
	// Faulted and CreateFailed are the instance's flags.
	Faulted      bool `json:"faulted,omitempty"`
	CreateFailed bool `json:"create_failed,omitempty"`
}

// SelfJSON is an instance's self in a snapshot: plain data in the JSON
// form of runtime.PlainJSON whose tables also hold the keys the script
// removed and gopher-lua still keeps a place for ("holes": Fields with a
// nil Value, null in JSON), so that a key set again after a restore goes
// back to its place in pairs order, as in the world that never stopped
// (docs/snapshot.md). A top-level key whose value is a function, left out
// as code, is a hole too.
type SelfJSON struct{ Value any }

// MarshalJSON encodes s.Value, holes as null.
func (s SelfJSON) MarshalJSON() ([]byte, error) { return runtime.AppendPlainJSON(nil, s.Value) }

// UnmarshalJSON decodes plain data into s.Value, keeping null values of
// keys as holes.
func (s *SelfJSON) UnmarshalJSON(b []byte) error {
	return parseInto(&s.Value, b, runtime.ParsePlainJSONWithHoles)
}

// parseInto sets *v to what parse reads from b; on an error *v is left
// as it was.
func parseInto(v *any, b []byte, parse func([]byte) (any, error)) error {
	p, err := parse(b)
	if err != nil {
		return err
	}
	*v = p
	return nil
}

// Timer is one pending timer.
type Timer struct {
	// ID is the timer's id, as ctx.after and ctx.every returned it.
	ID int64 `json:"id"`
	// Fn names the function of the script table it calls.
	Fn string `json:"fn"`
	// Due is the simulated time at which it fires next.
	Due float64 `json:"due"`
	// Period is the period of an every timer; 0 for an after timer.
	Period float64 `json:"period,omitempty"`
	// Data is the plain data passed to the function; nil for none.
	Data *runtime.PlainJSON `json:"data,omitempty"`
}

// Vec is a vector in a snapshot: [x, y, z].
type Vec [3]float64

// MarshalJSON writes [x, y, z] (a number that is not finite as the
// tagged {"$number": ...} of plain data).
func (v Vec) MarshalJSON() ([]byte, error) {
	return runtime.AppendPlainJSON(nil, &runtime.Table{Fields: []runtime.Field{{Key: 1.0, Value: v[0]}, {Key: 2.0, Value: v[1]}, {Key: 3.0, Value: v[2]}}})
}

// UnmarshalJSON reads [x, y, z].
func (v *Vec) UnmarshalJSON(b []byte) error {
	p, err := runtime.ParsePlainJSON(b)
	if err != nil {
		return err
	}
	t, ok := p.(*runtime.Table)
	if !ok || len(t.Fields) != 3 {
		return fmt.Errorf("%w: a vector must be [x, y, z]", runtime.ErrBadSnapshot)
	}
	for i, f := range t.Fields {
		n, ok := f.Value.(float64)
		if !ok || f.Key != float64(i+1) {
			return fmt.Errorf("%w: a vector must be [x, y, z] (three numbers)", runtime.ErrBadSnapshot)
		}
		v[i] = n
	}
	return nil
}

// VecOrNil returns v as a snapshot's vector, or nil when it is def (a
// field left out of the document).
func VecOrNil(v, def runtime.Vec3) *Vec {
	if v == def {
		return nil
	}
	return &Vec{v.X, v.Y, v.Z}
}

// Or returns v as the runtime's vector, def when v is nil.
func (v *Vec) Or(def runtime.Vec3) runtime.Vec3 {
	if v == nil {
		return def
	}
	return runtime.Vec3{X: v[0], Y: v[1], Z: v[2]}
}
