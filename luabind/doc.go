// Package luabind runs Lua scripts on a [runtime.Runtime]: designers' .lua
// files that return a table of callbacks (see docs/lua-api.md).
//
// A [Host] loads scripts from a directory ([Host.Load], [Host.Attach]),
// compiling each source once through a [Chunks] cache that hosts on other
// goroutines may share. Each [Script] runs in its own sandboxed gopher-lua
// state, taken from a pool and shared only by that script's instances;
// [Script] implements runtime.Script, so Lua and Go-native scripts share
// one schedule. [Host.Register] exposes Go functions to scripts.
//
// Every callback runs protected and under a work budget counted in
// instructions, never in wall time ([Options.Work], [Options.Budget]), a
// memory limit ([Options.MemoryLimit]) and a wall-clock backstop for what
// work cannot count ([Options.WallClock], [ErrWallClock]); a frame can be
// bounded as a whole with runtime.Runtime.StepContext. An error faults only its
// instance and is reported as a runtime.ScriptError with file:line. A
// script that does not load is a [LoadError].
//
// [Host.Reload] replaces a script compile-then-swap, migrating every live
// instance's state all-or-nothing (a refusal is a [ReloadError]);
// [Host.Watch] does it for every file saved in the script directory,
// between frames; [Options.OnReload] hears of every reload. Scripts may
// also come from an fs.FS ([Options.FS]).
//
// Between frames, Go reads an instance's self as plain data with
// [Host.Self] and writes one key with [Host.SetSelf]; [Host.Instances]
// iterates a script's instances. ctx.log lines and reload notices go to
// [Options.Log], or through log/slog ([Options.Logger]).
//
// Between frames, [Host.Snapshot] saves the world (a [Snapshot], written
// by [Snapshot.Marshal] and read by [ParseSnapshot]; see docs/snapshot.md)
// and [Host.Restore] continues it in a fresh runtime and host, without
// onCreate and with the optional onRestore. [Host.Export] and
// [Host.Import] ([Host.ExportAll], [Host.ImportAll]) move entities, as
// [snapshot.Entity] values, between worlds running the same scripts.
package luabind
