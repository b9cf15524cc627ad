// Package zones runs one world over several runtimes. A [Layout]
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
// Package zones/nats runs one zone of a world whose zones are separate
// processes sharing a NATS server; in-process users of zones do not link
// NATS.
package zones
