package luabind

import "github.com/luahost/luahost/snapshot"

// The snapshot document's types moved to package snapshot. These names
// stay for one release.
type (
	// Snapshot is a saved world.
	//
	// Deprecated: use snapshot.World.
	Snapshot = snapshot.World
	// ScriptSnapshot is one loaded script in a snapshot.
	//
	// Deprecated: use snapshot.Script.
	ScriptSnapshot = snapshot.Script
	// EntitySnapshot is one entity in a snapshot or a handoff.
	//
	// Deprecated: use snapshot.Entity.
	EntitySnapshot = snapshot.Entity
	// InstanceSnapshot is one script instance of a saved entity.
	//
	// Deprecated: use snapshot.Instance.
	InstanceSnapshot = snapshot.Instance
	// TimerSnapshot is one pending timer of a saved instance.
	//
	// Deprecated: use snapshot.Timer.
	TimerSnapshot = snapshot.Timer
	// SelfJSON is a saved instance's self.
	//
	// Deprecated: use snapshot.SelfJSON.
	SelfJSON = snapshot.SelfJSON
	// BlackboardJSON is a saved blackboard.
	//
	// Deprecated: use snapshot.BlackboardJSON.
	BlackboardJSON = snapshot.BlackboardJSON
	// Vec is a saved vector.
	//
	// Deprecated: use snapshot.Vec.
	Vec = snapshot.Vec
	// SnapshotTextError is a snapshot refused at a place of its text.
	//
	// Deprecated: use snapshot.TextError.
	SnapshotTextError = snapshot.TextError
)

// Format is the format of the snapshots this version writes.
//
// Deprecated: use snapshot.Format.
const Format = snapshot.Format

// ParseSnapshot reads a snapshot's JSON form.
//
// Deprecated: use snapshot.Parse.
func ParseSnapshot(data []byte) (*snapshot.World, error) { return snapshot.Parse(data) }
