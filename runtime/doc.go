// Package runtime is luahost's pure-Go core: it owns the entities and runs
// the scripts attached to them, every frame, in a deterministic order. It
// knows scripts only through the [Script] interface, so it builds and is
// tested with Go-native scripts alone; package luabind implements Script
// for Lua.
//
// # Entities
//
// An entity is a [Handle] into a slot map. [Runtime.Spawn] allocates a
// Pending entity, [Runtime.Activate] puts it in play, [Runtime.Kill] judges
// it dead (it is settled and reaped at the frame's flush), and
// [Runtime.Revive] saves a dying one. Reaped slots are reused with their
// generation bumped, so old handles fail with [ErrStaleHandle]. The
// lifecycle is a table ([CanTransition]); anything else is refused with a
// [TransitionError]. Entity payloads come from a bounded pool.
//
// # Scripts and frames
//
// [Runtime.Attach] makes an [Instance] of a script on an entity and runs
// its [Creator] callback at once. [Runtime.Step] runs a frame: every
// runnable instance's [Updater] in schedule order (priority, then attach
// order), then the flush: [Destroyer] callbacks of detached instances,
// settlement of killed entities, the transform commit, activation of the
// frame's spawns, reclaiming the slots of removed event observers.
// [Runtime.StepContext] bounds a frame by a context: when it is done, the
// running callback is stopped (through [Runtime.OnInterrupt]), no further
// update runs, the flush still does, and a [FrameError] says how far the
// frame ran. A panic in any Go hook Step runs (BeforeStep, FrameStart,
// AfterStep, OnError) never leaves the runtime inside a frame.
// [Runtime.Close] destroys everything in schedule order.
//
// # Cost
//
// The schedule and each event's observer list are kept in lanes by
// priority, in attach order, each lane a list of short chunks whose
// tombstones are compacted once half a chunk is dead, and shared names in
// lists with tombstones likewise: attach, detach, kill, subscribe,
// unsubscribe and naming are O(1) amortised whatever the world's size;
// [Events.NotifyEntity] costs the target's instances; [Runtime.ScriptChanged]
// costs the script's own instances. An event dispatched outside a frame
// defers the kills and detaches of its handlers to its end.
//
// # Shared state
//
// The [Blackboard] and [Events] carry plain data (see [Plain]) between
// scripts; [Runtime.Get] and [Runtime.Set] read committed transforms and
// write to the frame's write cache.
//
// # Tags and queries
//
// [Runtime.Tag] and [Runtime.Untag] keep a tag index; [Runtime.Query]
// and [Runtime.FindAll] return Active entities as an iterator, by tag,
// script, name and distance, answered from the tag index and a spatial
// hash kept up to date where positions are committed.
// [Runtime.QueryInstances] yields their script instances;
// [Runtime.AllEntities], [Runtime.AllInstances] and [Runtime.InstancesOf]
// iterate the whole world or one script.
//
// # Snapshots
//
// Between frames, [Runtime.Save] returns what the runtime owns of the
// world (a [WorldState]: the slot map with its generations and free list,
// entities, the schedule's order, the blackboard) and [Runtime.Restore]
// rebuilds it in a fresh runtime without running any callback.
// [Runtime.SaveEntity], [Runtime.Evict] and [Runtime.Adopt] move one
// entity between runtimes. Package luabind adds the scripts' state.
//
// A Runtime is driven by one goroutine; separate Runtimes share nothing.
// Callback errors are reported once, as a [ScriptError] whose Err is the
// Go cause, through [Options.OnError] (or logged through
// [Options.Logger], see [Slog]), and fault the instance.
package runtime
