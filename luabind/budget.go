package luabind

import (
	"errors"
	"fmt"
	"runtime/metrics"
	"sync"
	"sync/atomic"
	"time"
)

// A budget stops callbacks that run too long or keep too much memory (SPEC
// 4.5, 13). gopher-lua checks its state's context before every
// instruction; a budget is that context for every state of a host. A
// watchdog goroutine counts ticks; when the running callback has been seen
// running for more than its budget, or the host's Lua data grew past the
// memory limit (see poll), the current round's Done channel is closed,
// and the VM raises an error at its next instruction, wherever it is —
// also inside pcall or a coroutine.
//
// The memory limit counts only this host's data. The process's allocation
// counter, which the watchdog reads every tick, only bounds what this host
// can have allocated: after every quarter of the limit the process
// allocated during a callback, the watchdog asks for a measure, and the
// next Done, on the driving goroutine, walks the host's Lua data (Done
// then costs one more load of the round's cache line).
//
// Arming a callback costs one atomic swap and allocates nothing;
// disarming one that returned costs nothing, one that failed a load. The
// watchdog times a callback from the tick it first sees it, so a callback
// is stopped between its budget and its budget plus one tick (a twentieth
// of the budget, at most 5 ms).
//
// Callbacks nest: an onCreate run by attach or spawn, a handler run by
// emit or send, runs inside the callback that caused it (SPEC 13). Each
// callback's budget is measured on its own clock, and the outer's clock
// keeps running while a nested callback runs: an outer callback never
// gets a fresh budget. Every callback has the same budget and the
// outermost one started first, so its clock always runs out first (or in
// the same tick as a nested one's): the watchdog need only time the
// outermost callback. When its clock runs out, every callback on the
// stack is stopped; the nested ones without blame (disarm reports them as
// nested, and their callers treat the stop as a normal return), the
// outermost one faulted. The Lua functions that run nested callbacks
// raise the stop at once when they return (state.stopping), so the
// outer's report names its own file:line: the call that ran them. A
// nested callback that runs out of a budget of its own is faulted alone:
// that happens when nothing outside it is timed (it was called from Go,
// such as a Go-native script's callback, an event dispatched or an attach
// made from Go between frames).
type budget struct {
	_ [cacheLinePad]byte

	limit  time.Duration
	mem    uint64
	period time.Duration
	ticks  int64

	round atomic.Pointer[budgetRound]

	// seq and depth are touched only by the goroutine driving the host.
	seq   uint64
	depth int

	// measure returns the size of the host's Lua data, or a size past
	// stopAt as soon as it knows it is (stopAt 0: no stop); it runs on
	// the driving goroutine, when the watchdog asks for it. memSeq is the
	// callback whose first measure memBase is.
	measure func(stopAt int64) int64
	memSeq  uint64
	memBase int64
	// quietUntil rations measures: after one that took d, none runs for
	// 3d, so that measuring costs at most a quarter of a callback's time
	// however fast the rest of the process allocates.
	quietUntil time.Time

	stop chan struct{}
	done sync.WaitGroup

	_ [cacheLinePad]byte
}

// budgetRound is one Done channel. It fires at most once; the driving
// goroutine then replaces it before the next callback.
type budgetRound struct {
	done chan struct{}
	// armed holds the sequence number of the callback running under
	// this round (or of the last one: it is not cleared when a callback
	// returns, which would cost a second atomic operation), 0 between
	// frames, or fired.
	armed atomic.Uint64
	why   atomic.Int32
	// poll holds the number of a callback whose host's Lua data the
	// watchdog wants measured, or 0.
	poll atomic.Uint64
	// The VM reads done before every instruction and writes armed for
	// every callback: the padding keeps another host's round, running on
	// another core, off these cache lines.
	_ [cacheLinePad - 32]byte
}

// cacheLinePad is two cache lines: the size that keeps a hot object of
// one host from sharing a line (or an adjacent-line prefetch) with
// another's.
const cacheLinePad = 128

const fired = ^uint64(0)

const (
	whyTime int32 = iota + 1
	whyMemory
)

// errStopped is the context error that gopher-lua raises inside the VM;
// the host rewrites the message into "exceeded its ... budget in onUpdate".
var errStopped = errors.New("stopped by its budget")

// overrun says why a callback was stopped: nothing (err == nil), its time
// budget or its memory limit. nested marks a callback stopped without
// blame because an outer callback's clock ran out.
type overrun struct {
	err    error
	what   string
	nested bool
}

// errNested is what pcall returns for a nested callback stopped without
// blame; its callers treat it as a normal return.
var errNested = errors.New("stopped: an outer callback ran out of its budget")

func newBudget(limit time.Duration, mem uint64) *budget {
	period := max(min(limit/20, 5*time.Millisecond), time.Millisecond)
	b := &budget{
		limit:  limit,
		mem:    mem,
		period: period,
		ticks:  int64((limit + period - 1) / period),
		stop:   make(chan struct{}),
	}
	b.round.Store(newRound())
	b.done.Add(1)
	go b.watch()
	return b
}

func newRound() *budgetRound { return &budgetRound{done: make(chan struct{})} }

// Deadline implements context.Context: a budget has no fixed deadline.
func (b *budget) Deadline() (time.Time, bool) { return time.Time{}, false }

// Done implements context.Context: it is closed when the running callback
// is past its limits. gopher-lua calls it before every instruction, on
// the driving goroutine: when the watchdog asked for a measure, it is
// taken there, where the Lua data may be read.
func (b *budget) Done() <-chan struct{} {
	r := b.round.Load()
	if r.poll.Load() != 0 {
		b.poll(r)
	}
	return r.done
}

// poll measures the host's Lua data for the running callback. The first
// measure of a callback is its base; a later one more than three quarters
// of the memory limit above it stops the callback.
func (b *budget) poll(r *budgetRound) {
	seq := r.poll.Swap(0)
	if seq != b.seq || b.depth == 0 || b.measure == nil {
		return
	}
	start := time.Now()
	if start.Before(b.quietUntil) {
		return
	}
	defer func() { b.quietUntil = time.Now().Add(3 * time.Since(start)) }()
	if b.memSeq != seq {
		b.memSeq, b.memBase = seq, b.measure(0)
		return
	}
	over := b.memBase + int64(b.mem/4*3)
	if b.measure(over) > over {
		b.fire(r, seq, whyMemory)
	}
}

// Err implements context.Context.
func (b *budget) Err() error {
	select {
	case <-b.round.Load().done:
		return errStopped
	default:
		return nil
	}
}

// Value implements context.Context.
func (b *budget) Value(any) any { return nil }

// AfterFunc lets context.WithCancel derive from a budget without starting
// a goroutine per derived context (gopher-lua derives one for every
// coroutine). The function is never called: the sandbox gives every
// coroutine the budget itself as its context.
func (b *budget) AfterFunc(func()) func() bool { return func() bool { return true } }

// set stores seq as the running callback's number in the current round,
// replacing the round first if the watchdog fired it.
func (b *budget) set(seq uint64) {
	r := b.round.Load()
	if r.armed.Swap(seq) == fired {
		r = newRound()
		r.armed.Store(seq)
		b.round.Store(r)
	}
}

// arm starts the clock of a callback. Only the outermost callback is
// timed; a nested one starts while the outer's clock runs, and starts
// stopped when that clock has run out already.
func (b *budget) arm() {
	b.depth++
	if b.depth == 1 {
		b.seq++
		b.set(b.seq)
	}
}

// disarm ends a callback and, when it failed, reports whether it was
// stopped (one that returned was not: a stop is an error at the VM's
// next instruction). The round a stopped callback leaves behind stays
// fired until the outermost callback ends, so that everything it runs
// from then on stops at once; the next outermost callback replaces it.
func (b *budget) disarm(failed bool) overrun {
	b.depth--
	if !failed {
		return overrun{}
	}
	r := b.round.Load()
	if r.armed.Load() != fired {
		return overrun{}
	}
	if b.depth > 0 {
		return overrun{nested: true}
	}
	return b.describe(r.why.Load())
}

// stopping reports whether a callback runs and the outermost one's clock
// ran out.
func (b *budget) stopping() bool {
	return b.depth > 0 && b.round.Load().armed.Load() == fired
}

// idle tells the watchdog that no callback runs (between frames).
func (b *budget) idle() { b.set(0) }

func (b *budget) describe(why int32) overrun {
	if why == whyMemory {
		return overrun{err: ErrMemory, what: fmt.Sprintf("%d MiB memory limit", b.mem>>20)}
	}
	return overrun{err: ErrBudget, what: fmt.Sprintf("%v budget", b.limit)}
}

// watch is the watchdog goroutine. It times each callback from the first
// tick that sees its number.
func (b *budget) watch() {
	defer b.done.Done()
	t := time.NewTicker(b.period)
	defer t.Stop()
	sample := []metrics.Sample{{Name: "/gc/heap/allocs:bytes"}}
	var tick, start int64
	var lastSeq, base, next uint64
	for {
		select {
		case <-b.stop:
			return
		case <-t.C:
		}
		tick++
		r := b.round.Load()
		seq := r.armed.Load()
		if seq == 0 || seq == fired {
			lastSeq = 0
			continue
		}
		var allocs uint64
		if b.mem > 0 {
			metrics.Read(sample)
			allocs = sample[0].Value.Uint64()
		}
		if seq != lastSeq {
			lastSeq, start, base, next = seq, tick, allocs, b.mem/4
			continue
		}
		switch {
		case tick-start >= b.ticks:
			b.fire(r, seq, whyTime)
		case b.mem > 0 && allocs-base > next:
			// The process allocated enough that this host may have:
			// ask the driving goroutine to measure, and again after
			// every further quarter limit.
			r.poll.Store(seq)
			next = allocs - base + b.mem/4
		}
	}
}

func (b *budget) fire(r *budgetRound, seq uint64, why int32) {
	r.why.Store(why)
	if r.armed.CompareAndSwap(seq, fired) {
		close(r.done)
	}
}

// close stops the watchdog and waits for it.
func (b *budget) close() {
	close(b.stop)
	b.done.Wait()
}
