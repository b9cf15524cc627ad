// Package snapshot is the documented format of a saved luahost world
// (docs/snapshot.md): the document's types (World, Entity, Instance,
// Timer, Script), its writer ([World.Marshal]: the same world gives the
// same bytes, one entity a line) and its reader ([Parse]: strict, every
// refusal at its line and column as a [TextError]). It holds no world:
// luabind's Host.Snapshot and Host.Restore fill and read these types,
// with the core's part kept by runtime.
//
// It imports only runtime.
package snapshot
