// Package zones runs one world over several runtimes (SPEC 14). A [Layout]
// cuts the world into strips along one axis; each strip is a zone, one
// runtime.Runtime with its luabind.Host, holding the entities whose
// committed position lies in it.
//
// # In one process
//
// A [World] steps its zones in lockstep, each on its own goroutine: every
// zone runs one frame, then the entities whose committed position left
// their zone's strip are handed off to the zone that holds it now
// (luabind's ExportAll and ImportAll: the entity leaves without onDestroy
// and arrives without onCreate, with its scripts' state, tags, timers and
// name), all before the next frame starts. So every entity is updated
// exactly once per frame and none is lost or duplicated.
//
// What crosses zones besides entities: ctx.broadcast(event, data), which
// every zone's observers of event get at the start of its next frame;
// the blackboard, whose writes are published at the end of the frame that
// made them and visible to every zone from the next one (the last write
// wins; in one frame, the higher zone's). ctx.find, ctx.query and entity
// values see the local zone only; an entity value whose entity moved
// answers alive() true and zone() its new zone, and its other methods
// raise an error that says it moved.
//
// What a zone's scripts print is written out frame by frame, zone after
// zone, so lines never interleave; a world whose scripts do not look
// across edges prints the same lines, once sorted, with one zone or many.
//
// # Across processes
//
// A [Net] is one zone of a world whose zones are separate processes
// sharing a NATS server with JetStream ([Dial], [Net.LastCheckpoint],
// [Net.Start], [Net.Step], [Net.Close]; the luahost zone command). Each
// zone runs on its own clock. Handoffs go through the receiving zone's
// subject of the world's stream, with message ids that make a handoff
// sent twice stored once; every entity's owner record (zone, handoff
// count) lives in a key-value bucket and changes by compare-and-set; a
// zone saves a checkpoint of itself every NetOptions.Checkpoint frames
// and resumes from it after a crash, dropping what moved on meanwhile, so
// that every entity is in exactly one zone at every moment. A zone that
// loses NATS runs its own entities on and holds its outgoing handoffs.
package zones
