package luabind

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/luahost/luahost/luabind/internal/budget"
	"github.com/luahost/luahost/runtime"
	lua "github.com/yuin/gopher-lua"
)

// A callback's budget is a quantity of work: the VM instructions its Lua
// code runs, with the callbacks it runs nested, plus what the library
// functions it calls do in Go, charged by the size of their input (one
// instruction per 64 bytes built or scanned, per few steps of a pattern
// match or a sort, per node of a copy of plain data). It is never wall
// time: the same callback on the same data is stopped at the same point
// in every run, on every machine, under any load. The package
// internal/budget holds the design; this file words its stops.

// WorkPerSecond is the fixed rate at which a budget given as a duration
// (Options.Budget, the CLI's --budget 30ms) is converted to work: 100
// instructions a microsecond, about what a typical loop of Lua runs on
// an idle core of a current machine. A duration is only a way to write a
// quantity of work: a budget is never measured by the clock.
const WorkPerSecond = 100_000_000

// DefaultWork is the callback work budget when neither Options.Work nor
// Options.Budget is set: 10 million instructions, about 100 ms of Lua on
// an idle core.
const DefaultWork = 10_000_000

// DefaultWallClock is the wall-clock backstop when Options.WallClock is
// zero: far above what the default work budget takes, so that it only
// ever stops what work cannot count.
const DefaultWallClock = 10 * time.Second

// copyWork is the work charged for each node (key or value) of a copy
// of plain data: a node costs about what two instructions do.
const copyWork = 2

// coroutineWork is the work charged for creating a coroutine: its value
// and call stacks, some 32 KiB, at budget.BytesPerWork.
const coroutineWork = 32 << 10 / budget.BytesPerWork

// spawnWork is the work charged for each entity ctx.spawn makes: making
// it, with its records and its entity value, takes 600 to 900 ns, what
// some 64 instructions do. Uncharged, a loop of spawns ran 20 times
// longer than its budget said.
const spawnWork = 64

// queryWork is the work charged for each entity a query (ctx.query,
// ctx.findAll, and ctx.find under zoned rules) considers: checking one
// against the filters takes about 5 ns, half an instruction, rounded up.
// queryHitWork is charged for each entity it returns, whose entity value
// is made and put in the result: about 55 ns. Uncharged, a loop of
// queries over a world of thousands of entities ran until the wall-clock
// backstop stopped it, whatever its budget said.
const (
	queryWork    = 1
	queryHitWork = 6
)

// compileWork is the work charged for each byte of source that load or
// loadstring compiles: gopher-lua's parser and compiler, behind the
// syntax check, take some 300 ns a byte, what 16 to 25 instructions do.
const compileWork = 16

// WorkOf returns the work a budget of d stands for, at WorkPerSecond.
func WorkOf(d time.Duration) int64 { return int64(d) / int64(time.Second/WorkPerSecond) }

// DurationOf returns the duration that stands for n instructions at
// WorkPerSecond: WorkOf(DurationOf(n)) is n for every n.
func DurationOf(n int64) time.Duration { return time.Duration(n) * (time.Second / WorkPerSecond) }

// FormatWork writes n instructions as a budget is written in messages and
// help: 10M, 2.5M, 20k, 1234 (a suffix only where one decimal says it all).
func FormatWork(n int64) string {
	for _, u := range []struct {
		suffix string
		size   int64
	}{{"G", 1e9}, {"M", 1e6}, {"k", 1e3}} {
		if n >= u.size && n%(u.size/10) == 0 {
			return strconv.FormatFloat(float64(n)/float64(u.size), 'f', -1, 64) + u.suffix
		}
	}
	return strconv.FormatInt(n, 10)
}

// ParseWork reads a budget as the CLI's --budget takes it: a number of
// instructions, with an optional suffix k (thousand), M (million) or G
// (billion), such as 20000000, 20M or 2.5M; or a duration with its unit
// (30ms, 1s), converted at WorkPerSecond. 0 means no budget. Lower-case
// m is minutes, as in every Go duration.
func ParseWork(s string) (int64, error) {
	num, mult := s, 1.0
	switch {
	case strings.HasSuffix(s, "k"):
		num, mult = s[:len(s)-1], 1e3
	case strings.HasSuffix(s, "M"):
		num, mult = s[:len(s)-1], 1e6
	case strings.HasSuffix(s, "G"):
		num, mult = s[:len(s)-1], 1e9
	}
	if f, err := strconv.ParseFloat(num, 64); err == nil && !strings.ContainsAny(num, "eEinfxXpP") {
		n := f * mult
		if n < 0 || n > 1e15 || n != float64(int64(n)) {
			return 0, fmt.Errorf("budget %q: a whole, non-negative number of instructions up to 1e15", s)
		}
		return int64(n), nil
	}
	d, err := time.ParseDuration(s)
	if err != nil || d < 0 {
		return 0, fmt.Errorf("budget %q: instructions (20000000, 20M) or a duration (200ms)", s)
	}
	return WorkOf(d), nil
}

// workOf returns the work budget opts give (negative: off).
func workOf(opts Options) int64 {
	switch {
	case opts.Work != 0:
		return opts.Work
	case opts.Budget < 0:
		return -1
	case opts.Budget == 0:
		return DefaultWork
	}
	return max(WorkOf(opts.Budget), 1)
}

// ErrWallClock marks a callback stopped by the wall-clock backstop
// (Options.WallClock): the one stop that depends on the clock, for what
// work cannot count, such as a registered Go function that blocks.
var ErrWallClock = errors.New("wall-clock backstop exceeded")

// charge charges n work to the running callback's budget and raises the
// budget's stop in L when that runs it out.
func (h *Host) charge(L *lua.LState, n int64) {
	if h.budget != nil && h.budget.Charge(n) {
		L.RaiseError("%s", errStopped.Error())
	}
}

// errStopped is the context error that gopher-lua raises inside the VM;
// the host rewrites the message into "exceeded its ... budget in onUpdate".
var errStopped = budget.ErrStopped

// errNested is what pcall returns for a nested callback stopped without
// blame; its callers treat it as a normal return.
var errNested = errors.New("stopped: an outer callback ran out of its budget")

// overrun says why a callback was stopped: nothing (err == nil), its work
// budget, its memory limit, the backstop or the frame's context (an error
// matching runtime.ErrInterrupted: the runtime neither faults nor
// reports the callback then). nested
// marks a callback stopped without blame because an outer callback's
// budget ran out.
type overrun struct {
	err    error
	what   string
	nested bool
}

// disarm ends a callback under b (nil: no budget) and says what stopped
// it, when it failed.
func disarm(b *budget.Budget, failed bool) overrun {
	if b == nil {
		return overrun{}
	}
	why, nested := b.Disarm(failed)
	if nested {
		return overrun{nested: true}
	}
	return describe(b, why)
}

func describe(b *budget.Budget, why budget.Why) overrun {
	switch why {
	case budget.Work:
		return overrun{err: ErrBudget, what: FormatWork(b.Work()) + "-instruction budget"}
	case budget.Memory:
		return overrun{err: ErrMemory, what: fmt.Sprintf("%d MiB memory limit", b.Memory()>>20)}
	case budget.Ceiling:
		return overrun{err: ErrMemory, what: fmt.Sprintf("host's %d MiB memory ceiling", b.MemoryCeiling()>>20)}
	case budget.Wall:
		return overrun{err: ErrWallClock, what: fmt.Sprintf("%v wall-clock backstop", b.WallClock())}
	case budget.Cancel:
		return overrun{err: runtime.ErrInterrupted, what: "frame's bound (its context is done)"}
	case budget.Depth:
		return overrun{err: runtime.ErrEventDepth, what: "event nesting limit"}
	}
	return overrun{}
}
