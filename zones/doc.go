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
// Every zone's host runs under luabind's zoned rules (see
// luabind.Host.UseZonedRules and docs/zones.md), so that a world plays
// the same on any number of zones, one included: entities have world
// identities, and entity values name them in every zone; between
// frames the zones' committed state makes one view (luabind.View),
// which every zone's reads of other entities and queries answer from
// during the next frame; the effects scripts make on other entities,
// and their broadcasts, emits and blackboard writes, are routed to the
// zones that own their targets (every zone, for broadcasts and writes)
// and delivered at the start of the next frame in the order of their
// senders' identities; and what the zones print is merged, frame by
// frame, in the order of the identities of the entities that printed
// it. Hash hashes the world in a form the number of zones does not
// change, and Save saves it so: Part cuts such a snapshot for one zone
// of any layout, so that a world saved on n zones continues on m.
//
// With Options.Balance, the edges move between frames toward equal
// work per zone, counted from the committed view (balance.go): under
// the zoned rules no output depends on them.
//
// # Across processes
//
// A [Lockstep] is one zone of a world whose zones are separate
// processes, stepped in lockstep with them through a [Link]: after
// each frame the zones exchange, in two rounds, what a World's zones
// exchange in one process, and each computes from the same messages the
// same view, deliveries, edges and merged output. So a world in
// lockstep plays and prints what it does in one process.
//
// Package zones/nats runs one zone of a world whose zones are separate
// processes sharing a NATS server: on their own clocks, with fault
// tolerant ownership (nats.Net), or in lockstep (nats.Link, a Link);
// in-process users of zones do not link NATS.
package zones
