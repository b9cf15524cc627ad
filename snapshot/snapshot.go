package snapshot

import (
	"github.com/luahost/luahost/runtime"
)

// Format is the format of the snapshots this version writes.
const Format = "luahost-snapshot/1"

// World is a saved world: everything needed to continue it
// in a fresh Runtime and Host running the same scripts, exactly as if it
// had never stopped. Its JSON form (Marshal, Parse) is documented
// field by field in docs/snapshot.md. What is not world state is not in
// it: a script's module-level locals and globals, Go observers and
// registered functions.
type World struct {
	// Format is "luahost-snapshot/1".
	Format string `json:"format"`
	// ScriptsDir is the script directory, relative to the snapshot's
	// file, where a program that writes the snapshot to a file records
	// it (the CLI does); empty otherwise.
	ScriptsDir string `json:"scripts_dir,omitempty"`
	// Frame, Time and DT are the frame number, the simulated seconds and
	// the last frame's dt.
	Frame uint64  `json:"frame"`
	Time  float64 `json:"time"`
	DT    float64 `json:"dt"`
	// Seed is the runtime's seed.
	Seed int64 `json:"seed"`
	// Seq is the last attach sequence number given.
	Seq uint64 `json:"seq"`
	// TimerSeq is the last timer id given.
	TimerSeq int64 `json:"timer_seq"`
	// Slots is the size of the slot map (the highest index plus one).
	Slots uint32 `json:"slots"`
	// Free is the free list, bottom first (the next spawn takes the
	// last), each entry "INDEX:GEN" with the generation the slot's next
	// entity gets.
	Free []string `json:"free"`
	// Scripts are the loaded scripts in load order, with their random
	// generators' states.
	Scripts []Script `json:"scripts"`
	// Blackboard is the blackboard: a table of string keys.
	Blackboard BlackboardJSON `json:"blackboard"`
	// NameOrder lists, for each name that several entities share, their
	// ids in naming order (ctx.find returns the first).
	NameOrder [][]string `json:"name_order,omitempty"`
	// Activate lists the Pending entities that scripts spawned between
	// frames; they become Active before the next frame.
	Activate []string `json:"activate,omitempty"`
	// Zoned is set in the snapshot of a world run over zones (package
	// zones): its layout and the effects its scripts made in the last
	// frame, which the next frame delivers. Other worlds leave it out.
	Zoned *Zoned `json:"zoned,omitempty"`
	// Entities are the live entities, by index.
	Entities []Entity `json:"entities,omitempty"`
}

// Zoned is what the snapshot of a zoned world holds beyond one world's
// state (see World.Zoned).
type Zoned struct {
	// Axis ("x", "y" or "z") and Edges are the layout the world ran on.
	Axis  string    `json:"axis"`
	Edges []float64 `json:"edges"`
	// Effects are the effects made in the last frame on other entities
	// and the whole world, waiting for the start of the next, in the
	// order of their senders' identities.
	Effects []Effect `json:"effects,omitempty"`
}

// Effect is one effect waiting for the next frame of a zoned world.
type Effect struct {
	// Kind is "send", "kill", "tag", "untag", "set", "attach", "detach",
	// "broadcast" or "write".
	Kind string `json:"kind"`
	// To is the identity of the entity it acts on; 0 (left out) for the
	// whole world.
	To uint64 `json:"to,string,omitempty"`
	// From is the identity of the entity that made it (0: no entity's
	// callback), Seq its place among its zone's effects of the frame.
	From uint64 `json:"from,string,omitempty"`
	Seq  uint64 `json:"seq"`
	// Name is the event, tag, script or blackboard key.
	Name string `json:"name,omitempty"`
	// Data is the event's data, the props or the blackboard value (left
	// out: none, or a deleted key).
	Data *runtime.PlainJSON `json:"data,omitempty"`
	Mask int                `json:"mask,omitempty"`
	// Part ("position", "rotation" or "scale") and Vec are what a "set"
	// writes.
	Part string `json:"part,omitempty"`
	Vec  *Vec   `json:"vec,omitempty"`
}

// Script is one loaded script and its math.random generator.
type Script struct {
	// Name is the script's name.
	Name string `json:"name"`
	// Random is the state of its generator (a PCG's MarshalBinary), in
	// base64.
	Random string `json:"random"`
}

// BlackboardJSON is the blackboard in a snapshot: plain data in the JSON
// form of runtime.PlainJSON, an object of string keys. Each key's value
// is read as a value of its own (runtime.ParsePlainJSONMembers), with the
// depth and size a blackboard key may hold, so that every blackboard a
// world can save reads back.
type BlackboardJSON struct{ Value any }

// MarshalJSON encodes b.Value.
func (b BlackboardJSON) MarshalJSON() ([]byte, error) { return runtime.AppendPlainJSON(nil, b.Value) }

// UnmarshalJSON decodes the blackboard's object, each key's value on its
// own.
func (b *BlackboardJSON) UnmarshalJSON(data []byte) error {
	return parseInto(&b.Value, data, runtime.ParsePlainJSONMembers)
}
