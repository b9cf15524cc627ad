package luabind

import (
	"errors"
	"fmt"
	"runtime/metrics"
	"sync"
	"sync/atomic"
	"time"
)

// A budget stops callbacks that run too long or allocate too much (SPEC
// 4.5). gopher-lua checks its state's context before every instruction; a
// budget is that context for every state of a host. A watchdog goroutine
// counts ticks and, when the running callback is past its time or memory
// limit, closes the current round's Done channel; the VM then raises an
// error at its next instruction, wherever it is — also inside pcall or a
// coroutine. Arming and disarming a callback costs a few atomic operations
// and allocates nothing, so budgets can stay on in production.
type budget struct {
	_ [cacheLinePad]byte

	limit  time.Duration
	mem    uint64
	period time.Duration
	ticks  int64

	round atomic.Pointer[budgetRound]
	tick  atomic.Int64
	start atomic.Int64

	// seq and cur are touched only by the goroutine driving the host.
	seq uint64
	cur uint64

	stop chan struct{}
	done sync.WaitGroup

	_ [cacheLinePad]byte
}

// budgetRound is one Done channel. It fires at most once; the driving
// goroutine then replaces it before the next callback.
type budgetRound struct {
	done chan struct{}
	// armed holds the sequence number of the callback running under
	// this round, 0 when none, or fired.
	armed atomic.Uint64
	why   atomic.Int32
	// The VM reads done before every instruction and writes armed for
	// every callback: the padding keeps another host's round, running on
	// another core, off these cache lines.
	_ [cacheLinePad - 24]byte
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
// budget or its memory limit.
type overrun struct {
	err  error
	what string
}

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
// is past its limits. gopher-lua calls it before every instruction.
func (b *budget) Done() <-chan struct{} { return b.round.Load().done }

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

// armToken is what disarm needs to restore an outer callback.
type armToken struct {
	prevSeq   uint64
	prevStart int64
	startTick int64
}

// arm starts the clock of a callback. Callbacks nest (an event handler
// runs inside the emitting callback); the outer callback's clock pauses
// while the inner one runs.
func (b *budget) arm() armToken {
	b.seq++
	now := b.tick.Load()
	tok := armToken{prevSeq: b.cur, prevStart: b.start.Load(), startTick: now}
	b.cur = b.seq
	b.start.Store(now)
	r := b.round.Load()
	if r.armed.Swap(b.seq) == fired {
		r = newRound()
		r.armed.Store(b.seq)
		b.round.Store(r)
	}
	return tok
}

// disarm stops the clock of the current callback, restores the outer one,
// and reports whether the callback was stopped.
func (b *budget) disarm(tok armToken) overrun {
	var o overrun
	if tok.prevSeq != 0 {
		b.start.Store(tok.prevStart + b.tick.Load() - tok.startTick)
	}
	r := b.round.Load()
	if !r.armed.CompareAndSwap(b.cur, tok.prevSeq) {
		o = b.describe(r.why.Load())
		r = newRound()
		r.armed.Store(tok.prevSeq)
		b.round.Store(r)
	}
	b.cur = tok.prevSeq
	return o
}

func (b *budget) describe(why int32) overrun {
	if why == whyMemory {
		return overrun{err: ErrMemory, what: fmt.Sprintf("%d MiB memory limit", b.mem>>20)}
	}
	return overrun{err: ErrBudget, what: fmt.Sprintf("%v budget", b.limit)}
}

// watch is the watchdog goroutine.
func (b *budget) watch() {
	defer b.done.Done()
	t := time.NewTicker(b.period)
	defer t.Stop()
	sample := []metrics.Sample{{Name: "/gc/heap/allocs:bytes"}}
	var lastSeq, base uint64
	for {
		select {
		case <-b.stop:
			return
		case <-t.C:
		}
		tick := b.tick.Add(1)
		r := b.round.Load()
		seq := r.armed.Load()
		if seq == 0 || seq == fired {
			continue
		}
		if tick-b.start.Load() > b.ticks {
			b.fire(r, seq, whyTime)
			continue
		}
		if b.mem == 0 {
			continue
		}
		metrics.Read(sample)
		allocs := sample[0].Value.Uint64()
		if seq != lastSeq {
			lastSeq, base = seq, allocs
		} else if allocs-base > b.mem {
			b.fire(r, seq, whyMemory)
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
