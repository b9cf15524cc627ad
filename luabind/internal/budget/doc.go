// Package budget stops Lua callbacks that do too much work, keep too much
// memory or block: it is the context.Context of every gopher-lua state of
// a host.
//
// # Work, not time
//
// gopher-lua calls its state's context's Done before every VM
// instruction. A Budget's Done counts that instruction in a plain
// counter (only the goroutine driving the host calls it) and compares the
// count with the next count worth a look; it returns nil, a channel that
// never fires, until the running callback is stopped, and a closed
// channel from then on, which makes the VM raise ErrStopped at once,
// wherever it is, also inside pcall or a coroutine. Go library functions
// that do work in proportion to their input (building or scanning
// strings, sorting, copying plain data) add it to the same count through
// [Charge]. A callback is therefore stopped by its work alone: the same
// callback on the same data stops at the same instruction in every run,
// whatever the load of the machine, a SIGSTOP or the garbage collector's
// timing. Done costs an increment, a load and a compare, about what the
// wall-clock watchdog's check cost before it.
//
// # Nesting
//
// Callbacks nest: an onCreate run by attach or spawn, a handler run by
// emit or send, runs inside the callback that caused it. [Budget.Arm]
// gives only an outermost callback a fresh budget; a nested one runs on
// the outer's count, so the outer's work includes the nested work, and
// since every callback has the same budget and the outermost started
// first, the outermost's always runs out first. When it does, every
// callback on the stack is stopped: [Budget.Disarm] reports the nested
// ones as nested (stopped without blame), the outermost one as stopped.
// A callback run from Go with no callback around it is outermost: it runs
// out of a budget of its own and is faulted alone.
//
// # Memory
//
// The memory limit is independent of the work budget, and counts work
// too: once a callback ran three times what the host's last measure cost
// (in instructions' worth; at least 32,768), Done measures the host's Lua
// data
// (Options.Measure) on the driving goroutine, where the data may be read.
// The first measure is the callback's base; a later one more than three
// quarters of the limit above it stops the callback. Measures are
// rationed by what they cost, in instructions: the next comes three times
// that later, and later still while the data does not grow. Nothing of
// the clock, the garbage collector or another goroutine's allocations
// enters: a memory stop lands at the same instruction in every run.
// Garbage the callback drops is not counted, and what it keeps before
// its base or between two measures is counted only at the next. With a
// ceiling (Options.Ceiling), Done also reads the live heap as the last
// garbage collection found it, every 32,768 instructions of a callback: a
// callback during which it grew by a sixteenth of the ceiling, up to
// seven eighths of it, is stopped, so the ceiling holds inside a callback
// that never returns too; that stop depends on the collector's timing.
//
// # The wall-clock backstop
//
// Work cannot count a Go function that blocks (a registered function
// waiting on the network, a builtin gone wrong). With Options.Wall set, a
// watchdog goroutine ticks every twentieth of it and, when the same
// outermost callback has been armed for that long, makes the next Done
// stop it. It is the one stop that depends on the clock, so it is set far
// above what the work budget allows (seconds, not milliseconds). Arming a
// callback then costs one atomic store.
//
// # Cancelling
//
// [Budget.Cancel], from any goroutine, stops the running callback and
// every callback armed after it until [Budget.Resume]: a frame bounded by
// a context ends promptly.
package budget
