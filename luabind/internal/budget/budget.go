package budget

import (
	"context"
	"errors"
	"math"
	"runtime/metrics"
	"sync"
	"sync/atomic"
	"time"
)

// Options configures a Budget. Every limit is off at its zero value.
type Options struct {
	// Work is how many instructions a callback may run, with what it
	// runs nested; 0 means no work budget.
	Work int64
	// Memory is how many bytes a callback's data may grow by; 0 means no
	// memory limit. It needs Measure.
	Memory uint64
	// Measure returns the size of the host's Lua data, or a size past
	// stopAt as soon as it knows it is (stopAt 0: no stop), and what the
	// measure cost, in instructions. It runs on the driving goroutine,
	// from Done.
	Measure func(stopAt int64) (size, cost int64)
	// Wall is how long a callback may run by the clock; 0 means no
	// backstop.
	Wall time.Duration
	// Ceiling is the live heap, in bytes, near which (seven eighths) a
	// callback that keeps running is stopped; 0 means none. Between
	// callbacks the host guards its ceiling itself.
	Ceiling int64
}

// Why says what stopped a callback.
type Why int32

const (
	// None: the callback was not stopped.
	None Why = iota
	// Work: it ran past its work budget.
	Work
	// Memory: its data grew past the memory limit.
	Memory
	// Wall: it ran past the wall-clock backstop.
	Wall
	// Cancel: the frame it runs in was cancelled (Cancel).
	Cancel
	// Ceiling: the live heap neared the memory ceiling while it ran.
	Ceiling
	// Depth: a limit its chain of nested callbacks shares (the nesting
	// of events) was reached inside it (StopChain).
	Depth
)

// ErrStopped is the context error gopher-lua raises inside the VM when a
// callback is stopped; the host words the report itself.
var ErrStopped = errors.New("stopped by its budget")

// memEvery is how many instructions of a callback pass between two looks
// at its memory: about half a millisecond of Lua, so a look at the live
// heap (under a microsecond) costs nothing that shows.
const memEvery = 1 << 15

// A Budget is the context of every Lua state of a host. See the package
// documentation for the design.
type Budget struct {
	_ [cacheLinePad]byte

	// n counts the work done since the budget was made; next is the
	// count at which Done next looks at the limits (the watchdog stores
	// 0 to make it look at once). Only the driving goroutine touches the
	// rest of this group.
	n    int64
	next atomic.Int64

	work  int64
	limit int64
	depth int
	seq   uint64
	why   Why

	mem        uint64
	ceiling    int64
	measure    func(stopAt int64) (size, cost int64)
	memNext    int64
	measureAt  int64
	sample     []metrics.Sample
	memSeq     uint64
	memBase    int64
	memLast    int64
	backoff    int64
	lastCost   int64
	liveSeq    uint64
	liveBase   int64
	quietUntil int64

	// armed is the outermost callback's number (0 between frames) and
	// wallFired the number of the one the watchdog stopped.
	armed     atomic.Uint64
	wallFired atomic.Uint64
	// cancelled is set by Cancel, from any goroutine.
	cancelled atomic.Bool
	// suspended counts Holds not yet released: while it is not 0, the
	// backstop's clock stands still.
	suspended atomic.Int32
	wall      time.Duration
	stop      chan struct{}
	done      sync.WaitGroup

	_ [cacheLinePad]byte
}

// cacheLinePad is two cache lines: the size that keeps the hot fields of
// one host off the lines of another's, running on another core.
const cacheLinePad = 128

// never is a count no work reaches.
const never = math.MaxInt64

// fired is the channel Done returns once the running callback is stopped.
var fired = func() chan struct{} {
	c := make(chan struct{})
	close(c)
	return c
}()

// New makes a budget. Close it when done: with a backstop, it runs a
// watchdog goroutine.
func New(o Options) *Budget {
	b := &Budget{
		work:    o.Work,
		mem:     o.Memory,
		measure: o.Measure,
		wall:    o.Wall,
		ceiling: o.Ceiling,
		limit:   never,
		memNext: never,
		sample:  []metrics.Sample{{Name: "/gc/heap/live:bytes"}},
	}
	if b.measure == nil {
		b.mem = 0
	}
	b.next.Store(never)
	if b.wall > 0 {
		b.stop = make(chan struct{})
		b.done.Add(1)
		go b.watch()
	}
	return b
}

// Deadline implements context.Context: a budget has no fixed deadline.
func (b *Budget) Deadline() (time.Time, bool) { return time.Time{}, false }

// Done implements context.Context. gopher-lua calls it before every
// instruction, on the driving goroutine: it counts one instruction and
// returns nil (a channel that never fires) until the running callback
// is stopped, then a closed channel.
func (b *Budget) Done() <-chan struct{} {
	b.n++
	if b.n < b.next.Load() {
		return nil
	}
	return b.check()
}

// Err implements context.Context: ErrStopped once the running callback
// is stopped, nil before.
func (b *Budget) Err() error {
	if b.why != None {
		return ErrStopped
	}
	return nil
}

// Value implements context.Context.
func (b *Budget) Value(any) any { return nil }

// AfterFunc lets context.WithCancel derive from a budget without starting
// a goroutine per derived context (gopher-lua derives one for every
// coroutine). The function is never called: a host gives every coroutine
// the budget itself as its context.
func (b *Budget) AfterFunc(func()) func() bool { return func() bool { return true } }

// Charge counts n instructions of work done in Go on the running
// callback's behalf (a library function's, by the size of its input) and
// reports whether the callback is stopped; a Go loop that charges as it
// goes stops when it is. It does nothing when ctx is not a budget (nor
// wraps one, see Of).
func Charge(ctx context.Context, n int64) bool {
	b := Of(ctx)
	if b == nil {
		return ctx != nil && ctx.Err() != nil
	}
	return b.Charge(n)
}

// Of returns the budget ctx is, or the one it wraps: a context with an
// Unwrap() context.Context method (as a debugger's context of a state
// has) is looked through. It returns nil when there is none.
func Of(ctx context.Context) *Budget {
	for ctx != nil {
		switch c := ctx.(type) {
		case *Budget:
			return c
		case interface{ Unwrap() context.Context }:
			ctx = c.Unwrap()
		default:
			return nil
		}
	}
	return nil
}

// Hold stops the wall-clock backstop's clock of the running callback,
// until Release: a debugger holding the callback paused does not spend
// its time. Holds nest. Safe from any goroutine.
func (b *Budget) Hold() { b.suspended.Add(1) }

// Release undoes one Hold.
func (b *Budget) Release() { b.suspended.Add(-1) }

// Charge is the function Charge for a budget.
func (b *Budget) Charge(n int64) bool {
	if n > 0 {
		b.n += n
	}
	if b.n >= b.next.Load() {
		b.check()
	}
	return b.why != None
}

// Straight charges, for code that runs at most n instructions without a
// call or a loop, those n at once, when no limit, look or stop falls
// within them, and reports whether it did: the code may then run without
// Done before each instruction. Otherwise it charges nothing, and the
// code runs counted instruction by instruction.
func (b *Budget) Straight(n int64) bool {
	if b.n+n >= b.next.Load() {
		// next may be early (Arm): check puts it right, or stops.
		b.check()
		if b.why != None || b.n+n >= b.next.Load() {
			return false
		}
	}
	b.n += n
	return true
}

// check is Done's slow path: the count reached next, or the watchdog
// asked for a look.
func (b *Budget) check() <-chan struct{} {
	if b.why != None {
		return fired
	}
	if b.depth == 0 {
		b.next.Store(never)
		return nil
	}
	if b.wallFired.Load() == b.seq {
		b.why = Wall
		return fired
	}
	if b.cancelled.Load() {
		b.why = Cancel
		return fired
	}
	if b.n >= b.limit {
		b.why = Work
		return fired
	}
	if b.n >= b.memNext {
		b.memNext = b.n + memEvery
		b.pollMemory()
		if b.why != None {
			return fired
		}
	}
	b.next.Store(min(b.limit, b.memNext))
	if b.wallFired.Load() == b.seq || b.cancelled.Load() {
		// The watchdog or Cancel fired between the looks above and the
		// store: look again at once.
		b.next.Store(0)
	}
	return nil
}

// pollMemory runs every memEvery instructions of a callback. With a
// ceiling, it reads the live heap (see the package documentation). With
// a memory limit, once the callback ran three times what the host's last
// measure cost (at least memEvery instructions) it measures the host's
// Lua data: the first measure is the callback's base; a later one more
// than three quarters of the limit above it stops the callback. Measures
// are rationed by work, never by the clock or the process's allocations,
// so that a memory stop lands where it lands in every run: after one that
// cost c instructions' worth, the next waits 3c (at least memEvery), and
// twice as long after each measure that saw the data grow by less than a
// sixteenth of the limit (up to 64 times), so a long callback that keeps
// nothing is measured a handful of times.
func (b *Budget) pollMemory() {
	if b.ceiling > 0 {
		metrics.Read(b.sample)
		live := int64(b.sample[0].Value.Uint64())
		if b.liveSeq != b.seq {
			b.liveSeq, b.liveBase = b.seq, live
		} else if live >= b.ceiling/8*7 && live-b.liveBase >= b.ceiling/16 {
			// The live heap, as the last collection found it, nears
			// the ceiling and grew by a sixteenth of it while this
			// callback ran: it is the one growing.
			b.why = Ceiling
			return
		}
	}
	if b.mem == 0 || b.n < b.measureAt {
		return
	}
	var size, cost int64
	if b.memSeq != b.seq {
		size, cost = b.measure(0)
		b.memSeq, b.memBase, b.memLast, b.backoff = b.seq, size, size, 1
	} else {
		over := b.memBase + int64(b.mem/4*3)
		if size, cost = b.measure(over); size > over {
			b.why = Memory
			return
		}
		if size-b.memLast < int64(b.mem/16) {
			b.backoff = min(2*b.backoff, 64)
		} else {
			b.backoff = 1
		}
		b.memLast = size
	}
	b.lastCost = cost
	b.quietUntil = b.n + 3*cost
	b.measureAt = b.n + max(memEvery, 3*cost)*b.backoff
}

// Arm starts a callback. An outermost one gets a fresh budget; a nested
// one runs on the outer's, which, started first, always runs out first.
func (b *Budget) Arm() {
	b.depth++
	if b.depth > 1 {
		return
	}
	b.seq++
	b.why = None
	b.limit = never
	if b.work > 0 {
		b.limit = b.n + b.work
	}
	b.memNext = never
	if b.mem > 0 || b.ceiling > 0 {
		b.memNext = b.n + memEvery
		// The first measure waits three times what the host's last
		// measure cost: the callbacks of a frame, nearly all far
		// shorter, are not measured, and a long one spends at most a
		// quarter of its time measuring.
		b.measureAt = max(b.n+max(memEvery, 3*b.lastCost), b.quietUntil)
	}
	// A next that comes sooner only makes Done look early (check puts
	// it right): most callbacks arm without an atomic store here.
	if next := min(b.limit, b.memNext); b.next.Load() > next {
		b.next.Store(next)
	}
	if b.wall > 0 {
		b.armed.Store(b.seq)
	}
	if b.cancelled.Load() {
		b.next.Store(0)
	}
}

// Disarm ends a callback and, when it failed, says what stopped it (one
// that returned was not stopped: a stop is an error at the VM's next
// instruction). nested marks a nested callback stopped without blame:
// the outermost one's budget ran out. A stop stays in force until the
// outermost callback ends, so that everything it runs from then on stops
// at once.
func (b *Budget) Disarm(failed bool) (why Why, nested bool) {
	b.depth--
	why = b.why
	if b.depth == 0 {
		b.why = None
	}
	if !failed || why == None {
		return None, false
	}
	if b.depth > 0 {
		return None, true
	}
	return why, false
}

// Stopping reports whether a callback runs and is stopped.
func (b *Budget) Stopping() bool { return b.depth > 0 && b.why != None }

// Count returns the work counted since the budget was made.
func (b *Budget) Count() int64 { return b.n }

// Idle tells the watchdog that no callback runs (between frames).
func (b *Budget) Idle() {
	if b.wall > 0 {
		b.armed.Store(0)
	}
}

// Cancel stops the running callback, and every callback armed after it
// until Resume, at its next instruction. It is safe to call from any
// goroutine.
func (b *Budget) Cancel() {
	b.cancelled.Store(true)
	b.next.Store(0)
}

// StopChain stops the running chain of nested callbacks, for a limit the
// chain shares that a nested callback reached: every callback of the
// chain stops at its next instruction, the nested ones without blame and
// the outermost with Depth, so that the callback whose ordinary call was
// the last straw is not blamed for what the chain's origin built. The
// outermost callback reaching the limit itself is not stopped: the error
// is its own.
func (b *Budget) StopChain() {
	if b.depth < 2 || b.why != None {
		return
	}
	b.why = Depth
	b.next.Store(0)
}

// Resume undoes Cancel for the callbacks armed from now on.
func (b *Budget) Resume() { b.cancelled.Store(false) }

// watch is the backstop's goroutine. It times each outermost callback
// from the first tick that sees its number, in ticks of a twentieth of
// the backstop.
func (b *Budget) watch() {
	defer b.done.Done()
	period := max(b.wall/20, time.Millisecond)
	ticks := int64((b.wall + period - 1) / period)
	t := time.NewTicker(period)
	defer t.Stop()
	var tick, start int64
	var last uint64
	for {
		select {
		case <-b.stop:
			return
		case <-t.C:
		}
		tick++
		seq := b.armed.Load()
		if seq == 0 {
			last = 0
			continue
		}
		if seq != last {
			last, start = seq, tick
			continue
		}
		if b.suspended.Load() != 0 {
			// The callback is held (a debugger's pause): the tick does
			// not count.
			start++
			continue
		}
		if tick-start >= ticks && b.wallFired.Load() != seq {
			b.wallFired.Store(seq)
			b.next.Store(0)
		}
	}
}

// Close stops the watchdog and waits for it.
func (b *Budget) Close() {
	if b.stop != nil {
		close(b.stop)
		b.done.Wait()
		b.stop = nil
	}
}

// SetWork replaces the work budget of the callbacks armed from now on
// (0: none) and returns the previous one.
func (b *Budget) SetWork(n int64) int64 {
	old := b.work
	b.work = max(n, 0)
	return old
}

// Work returns the work budget (0: none).
func (b *Budget) Work() int64 { return b.work }

// Memory returns the memory limit in bytes (0: none).
func (b *Budget) Memory() uint64 { return b.mem }

// MemoryCeiling returns the ceiling in bytes (0: none).
func (b *Budget) MemoryCeiling() int64 { return b.ceiling }

// WallClock returns the backstop (0: none).
func (b *Budget) WallClock() time.Duration { return b.wall }

// BytesPerWork is how many bytes a library function may build, copy or
// scan for one instruction of work: moving 64 bytes costs about what an
// instruction does.
const BytesPerWork = 64

// ChargeBytes charges the work of building, copying or scanning n bytes,
// as Charge does.
func ChargeBytes(ctx context.Context, n int) bool { return Charge(ctx, int64(n/BytesPerWork)) }

// Refund sets the count back to to, a count read earlier in the same
// callback, when the work since then stopped it: work that is refused
// (a handler's result too large to copy, which is the handler's fault) is
// not charged to the callback around it. A stop of another kind stays.
func (b *Budget) Refund(to int64) {
	if b.why == Work && to < b.limit && to <= b.n {
		b.n, b.why = to, None
		b.next.Store(0)
	}
}
