package luabind

import (
	"context"
	"errors"
	"runtime/pprof"
	"slices"
	"sync"
	"time"

	"github.com/luahost/luahost/runtime"
)

// Per-script timing. The host counts every callback it runs
// (onCreate, onUpdate, event handlers, timers, onDestroy, onReload) per
// script and kind, and times them. Reading the clock twice costs about as
// much as a fifth of the cheapest callback (the spinner's onUpdate), so
// unless Options.Timing, Options.OnCallback or Options.ProfileLabels asks
// for every call, a callback is timed when one of two rules says so:
//
//   - one callback in sampleEvery, chosen at random (so that no order of
//     instances in the schedule always hides the same ones);
//   - the first warmUp calls of each of a script's callback kinds, and
//     every call of a kind whose timed calls took everyTime or more on
//     average: for those the clock costs little.
//
// Totals are then estimated: each timed call's time stands for itself and
// for the calls not timed since the kind's previous timed call, so a
// total only grows (a counter a metrics system reads never goes down) and
// is exact when every call is timed. Maxima are those of the timed calls.
//
// Reading from any goroutine. The counters are plain fields that only the
// driving goroutine writes; Stats reads a copy of them that the driving
// goroutine publishes under a mutex at the end of every frame, after
// every callback run between frames and after every load and reload. A
// publish costs O(scripts) at a frame's end and O(1) after a callback
// between frames; the callbacks of a frame pay nothing for it. A callback's time is
// its own: the callbacks it ran nested inside it (an onCreate run by a
// spawn, a handler run by a send) are counted for their own scripts and
// taken out of its time.

// Timing is how a host counts and times callbacks (Options.Timing).
type Timing int

const (
	// TimingSampled counts every callback and times a sample: a random
	// sixteenth of the cheap ones and every call of the others (about 1 %
	// of the 10,000-spinner frame).
	TimingSampled Timing = iota
	// TimingExact times every callback (about 15 % of the 10,000-spinner
	// frame, whose callbacks are the cheapest there are).
	TimingExact
	// TimingOff neither counts nor times: Stats' Timing holds zeros.
	TimingOff
)

// callbackKind is what a protected call runs: one of the timed callback
// kinds, or a chunk (not timed).
type callbackKind uint8

const (
	kindOnCreate callbackKind = iota
	kindOnUpdate
	kindEvents
	kindTimers
	kindOnDestroy
	kindOnReload
	numKinds
	kindChunk = numKinds
)

// kindNames are the callback kinds' names in Stats.
var kindNames = [numKinds]string{"onCreate", "onUpdate", "events", "timers", "onDestroy", "onReload"}

const (
	// sampleEvery is the sampling period: a power of two.
	sampleEvery = 64
	// everyTime is the mean call time from which every call of a kind is
	// timed: the clock then costs under 3 % of the call.
	everyTime = 2 * time.Microsecond
	// warmUp is how many calls of a kind are timed before sampling
	// starts, so that a script with few calls is timed exactly.
	warmUp = 16
)

// Stats is a snapshot of a host's counters, as of the end of the last
// frame or the last callback, load or reload between frames, whichever
// came later (see Host.Stats). Every count in it only grows.
type Stats struct {
	Scripts int
	Reloads int
	// Frame is the runtime's frame number that ScriptStats.Frame figures
	// are for: the last frame run.
	Frame uint64
	// Runtime is the runtime's counters (entities, instances, frames,
	// errors, spawns, kills) as of the same moment.
	Runtime runtime.Stats
	// Memory is the size of the host's Lua data (states, selves, the
	// blackboard) in bytes, as of the last MeasureMemory; 0 before one.
	Memory int64
	// FrameTimes is the histogram of the frames' durations, each Step
	// from its start to its end.
	FrameTimes FrameTimes
	// Timing is the timing of every loaded script, in load order.
	Timing []ScriptStats
}

// frameBounds are the upper bounds of FrameTimes' buckets.
var frameBounds = [...]time.Duration{
	time.Millisecond, 2 * time.Millisecond, 4 * time.Millisecond, 8 * time.Millisecond,
	16 * time.Millisecond, 33 * time.Millisecond, 50 * time.Millisecond, 100 * time.Millisecond,
	250 * time.Millisecond, 500 * time.Millisecond, time.Second,
}

// FrameBounds returns the upper bounds of the buckets of
// Stats.FrameTimes: 1, 2, 4, 8, 16, 33, 50, 100, 250 and 500 ms and 1 s.
func FrameBounds() []time.Duration { return slices.Clone(frameBounds[:]) }

// FrameTimes is a histogram of frame durations.
type FrameTimes struct {
	// Buckets counts, for each of FrameBounds, the frames that took at
	// most that long and longer than the previous bound; its last entry
	// (one more than FrameBounds) counts the frames longer than 1 s.
	Buckets [len(frameBounds) + 1]uint64
	// Count and Sum are the frames counted and their total time.
	Count uint64
	Sum   time.Duration
}

// add counts a frame that took d.
func (f *FrameTimes) add(d time.Duration) {
	i, _ := slices.BinarySearch(frameBounds[:], d)
	f.Buckets[i]++
	f.Count++
	f.Sum += d
}

// ScriptStats is the timing of one script's callbacks since it was loaded
// (over its hot reloads).
type ScriptStats struct {
	// Script is the script's name, such as "ai/patrol".
	Script string
	// Calls and Errors count the callbacks run and those that failed.
	Calls, Errors int64
	// Faults counts the reported errors that faulted one of its
	// instances (every callback's error but onDestroy's, and faults
	// from outside a callback, such as the memory ceiling's).
	Faults int64
	// Reloads counts its hot reloads applied.
	Reloads int64
	// Total is the callbacks' time, Max the longest one's: estimated
	// from the timed calls unless Exact.
	Total, Max time.Duration
	// Exact reports that every call was timed.
	Exact bool
	// Frame is the script's share of Stats.Frame (with the callbacks run
	// between it and the next frame, such as attaches from Go).
	Frame FrameStats
	// Callbacks splits the figures by callback kind, in the order
	// onCreate, onUpdate, events, timers, onDestroy, onReload; kinds that
	// never ran are left out.
	Callbacks []CallbackStats
}

// Mean returns Total / Calls, or 0 without calls.
func (s ScriptStats) Mean() time.Duration { return mean(s.Total, s.Calls) }

// FrameStats is one script's callbacks in one frame, over all its
// instances.
type FrameStats struct {
	Calls int64
	Total time.Duration
}

// CallbackStats is the timing of one kind of callback of a script.
type CallbackStats struct {
	// Callback is the kind: "onCreate", "onUpdate", "events" (every
	// handler), "timers" (every timer function), "onDestroy" or
	// "onReload".
	Callback      string
	Calls, Errors int64
	// Timed counts the calls that were timed; Total is estimated from
	// them when it is less than Calls (and only grows).
	Timed      int64
	Total, Max time.Duration
}

// Mean returns Total / Calls, or 0 without calls.
func (s CallbackStats) Mean() time.Duration { return mean(s.Total, s.Calls) }

func mean(total time.Duration, calls int64) time.Duration {
	if calls == 0 {
		return 0
	}
	return total / time.Duration(calls)
}

// CallbackTiming is what Options.OnCallback receives after every callback.
type CallbackTiming struct {
	// Script is the script's name.
	Script string
	// Entity is the instance's entity.
	Entity runtime.Handle
	// Callback names the callback as errors do: "onUpdate",
	// "events.hit", "timer tick".
	Callback string
	// Duration is the callback's wall time, Self the same without the
	// callbacks it ran nested inside it.
	Duration, Self time.Duration
	// Err is the *runtime.ScriptError the callback failed with, or nil.
	Err error
}

// timing is a script's counters, kept on its Script over hot reloads.
type timing struct {
	kinds          [numKinds]kindTiming
	faults, reload int64
	// frame is the frame whose figures the frame* fields hold.
	frame                  uint64
	frameCalls, frameTimed int64
	frameTime              time.Duration
}

// at makes the frame* figures those of frame f, zero when they were
// another frame's.
func (tm *timing) at(f uint64) {
	if tm.frame != f {
		tm.frame, tm.frameCalls, tm.frameTimed, tm.frameTime = f, 0, 0, 0
	}
}

// kindTiming is one callback kind's counters. sampled is set once the
// kind's first warmUp calls were timed, while its timed calls average
// less than everyTime: until then every call is timed.
//
// time is the estimated total: each timed call adds its time once for
// itself and once for every call since the previous timed one (counted
// is the calls counted so far).
type kindTiming struct {
	calls, timed, errors, counted int64
	// mean is the timed calls' own total, whose mean decides sampling.
	time, mean, max time.Duration
	sampled         bool
}

// clock is the host's side of timing.
type clock struct {
	// all times every callback; off counts none.
	all, off bool
	epoch    time.Time
	rng      uint64
	// skip counts down the calls to the next timed one.
	skip int
	// every is the mean call time from which every call of a kind is
	// timed (everyTime).
	every time.Duration
	// nested is the time of the timed callbacks that ran inside the
	// running one, so far.
	nested time.Duration
	// labels is the pprof label set of the running callback (with
	// Options.ProfileLabels).
	labels context.Context
}

func newClock(opts Options) clock {
	return clock{
		all:    opts.Timing == TimingExact || opts.OnCallback != nil || opts.ProfileLabels,
		off:    opts.Timing == TimingOff && opts.OnCallback == nil && !opts.ProfileLabels,
		epoch:  time.Now(),
		every:  everyTime,
		rng:    uint64(time.Now().UnixNano()) | 1,
		labels: context.Background(),
	}
}

// now returns the monotonic time since the clock's epoch.
func (c *clock) now() time.Duration { return time.Since(c.epoch) }

// nextSkip returns how many calls the next sampled one is after: 1 to
// 2*sampleEvery-1 at random (xorshift), sampleEvery on average, so that
// no order of instances in the schedule always hides the same ones. With
// all, every call is timed.
func (c *clock) nextSkip() int {
	if c.all {
		return 0
	}
	x := c.rng
	x ^= x << 13
	x ^= x >> 7
	x ^= x << 17
	c.rng = x
	return 1 + int(x%(2*sampleEvery-1))
}

// count records a callback of kind k that returned err (errNested is no
// failure of its own) in the script's counters and its frame's.
func (st *state) count(k *kindTiming, err error) {
	tm := &st.script.timing
	tm.at(st.frame)
	k.calls++
	tm.frameCalls++
	if err != nil && err != errNested {
		k.errors++
	}
}

// record adds a timed call that took self, already counted, to k: once
// for itself and once for every call not timed since the previous timed
// one. every is the mean call time from which every call is timed.
func (k *kindTiming) record(self, every time.Duration) {
	self = max(self, 0)
	k.timed++
	k.mean += self
	k.time += self * time.Duration(k.calls-k.counted)
	k.counted = k.calls
	k.max = max(k.max, self)
	k.sampled = k.timed >= warmUp && k.mean < every*time.Duration(k.timed)
}

// published publishes the script's counters after a callback that ran
// between frames, outside any other: Stats sees it at once.
func (st *state) published() {
	if h := st.host; h.nesting == 0 && !h.rt.Stepping() {
		h.publishScript(st.script)
	}
}

// timedCall is pcallAs for a callback that is timed: under its pprof
// labels with Options.ProfileLabels, its own time (without the timed
// callbacks nested in it) added to k, and Options.OnCallback told.
func (st *state) timedCall(nargs, nret int, k *kindTiming, callback, suffix string) error {
	h := st.host
	c := &h.clock
	if c.skip <= 0 {
		c.skip = c.nextSkip()
	}
	var labels context.Context
	if h.opts.ProfileLabels {
		labels = c.labels
		c.labels = st.labelSet(callback, suffix)
		pprof.SetGoroutineLabels(c.labels)
	}
	outer := c.nested
	c.nested = 0
	start := c.now()
	err := st.protected(nargs, nret, callback, suffix)
	d := c.now() - start
	self := d - c.nested
	c.nested = outer + d
	if h.nesting == 0 {
		// Nothing around this callback: what the callbacks outside
		// any timed one summed up is no one's.
		c.nested = 0
	}
	if labels != nil {
		c.labels = labels
		pprof.SetGoroutineLabels(labels)
	}
	st.count(k, err)
	k.record(self, c.every)
	st.published()
	tm := &st.script.timing
	tm.frameTimed++
	tm.frameTime += self
	if fn := h.opts.OnCallback; fn != nil {
		var ent runtime.Handle
		if st.cur != nil {
			ent = st.cur.Entity()
		}
		cerr := err
		if cerr == errNested {
			cerr = nil
		}
		fn(CallbackTiming{Script: st.script.name, Entity: ent, Callback: callback + suffix, Duration: d, Self: self, Err: cerr})
	}
	return err
}

// labelSet returns the pprof label set of a callback, made once per
// state and name.
func (st *state) labelSet(callback, suffix string) context.Context {
	key := [2]string{callback, suffix}
	if ctx, ok := st.labels[key]; ok {
		return ctx
	}
	if st.labels == nil {
		st.labels = make(map[[2]string]context.Context)
	}
	ctx := pprof.WithLabels(context.Background(), pprof.Labels("script", st.script.name, "callback", callback+suffix))
	st.labels[key] = ctx
	return ctx
}

// Stats returns the number of loaded scripts, of hot reloads applied,
// the runtime's counters, the frame-time histogram and every script's
// timing, as of the end of the last frame or the last callback, load or
// reload between frames (from a callback during a frame, the previous
// frame's end). It is safe to call from any goroutine: it copies the
// counters the driving goroutine published, under a mutex held for
// O(scripts), and allocates the Timing slice.
func (h *Host) Stats() Stats {
	p := &h.published
	p.mu.Lock()
	defer p.mu.Unlock()
	s := p.stats
	s.Timing = make([]ScriptStats, 0, len(p.scripts))
	for i := range p.scripts {
		ps := &p.scripts[i]
		s.Timing = append(s.Timing, ps.timing.stats(ps.name, s.Frame))
	}
	return s
}

// published is what Stats reads: a copy of the counters, which the
// driving goroutine updates under mu.
type published struct {
	mu      sync.Mutex
	stats   Stats
	scripts []publishedScript
}

type publishedScript struct {
	name   string
	timing timing
}

// publish copies every counter for Stats: at the end of every frame and
// after a load, an unload or a reload. O(scripts).
func (h *Host) publish() {
	p := &h.published
	p.mu.Lock()
	defer p.mu.Unlock()
	p.stats.Scripts, p.stats.Reloads, p.stats.Frame, p.stats.Runtime = len(h.order), h.reloads, h.rt.Frame(), h.rt.Stats()
	p.stats.FrameTimes = h.frameTimes
	p.scripts = slices.Grow(p.scripts[:0], len(h.order))
	for i, sc := range h.order {
		sc.index = i
		p.scripts = append(p.scripts, publishedScript{name: sc.name, timing: sc.timing})
	}
}

// publishScript copies one script's counters and the runtime's, after a
// callback between frames. O(1).
func (h *Host) publishScript(sc *Script) {
	p := &h.published
	p.mu.Lock()
	defer p.mu.Unlock()
	if sc.index >= len(p.scripts) || p.scripts[sc.index].name != sc.name {
		// Not published yet (a chunk's callbacks run before the load
		// ends): the load publishes it.
		return
	}
	p.scripts[sc.index].timing = sc.timing
	p.stats.Runtime = h.rt.Stats()
}

// publishRuntime copies the runtime's counters, after a change the host
// made between frames (an attach, an import, an export, a restore).
// O(1).
func (h *Host) publishRuntime() {
	if h.rt.Stepping() {
		return
	}
	p := &h.published
	p.mu.Lock()
	p.stats.Runtime = h.rt.Stats()
	p.mu.Unlock()
}

// MeasureMemory measures the host's Lua data (every state, self and the
// blackboard), returns its size in bytes and publishes it as
// Stats.Memory. It walks all of that data: O(the Lua data), on the
// driving goroutine, between frames.
func (h *Host) MeasureMemory() int64 {
	n, _ := h.measureLua(0)
	p := &h.published
	p.mu.Lock()
	p.stats.Memory = n
	p.mu.Unlock()
	return n
}

// countFault counts, for Stats, a reported error that faulted an
// instance of a Lua script of this host.
func (h *Host) countFault(err error) {
	var se *runtime.ScriptError
	if !errors.As(err, &se) || se.Callback == "onDestroy" {
		return
	}
	if sc := h.scripts[se.Script]; sc != nil {
		sc.timing.faults++
	}
}

// stats returns the counters as a ScriptStats, with frame's figures.
func (tm *timing) stats(name string, frame uint64) ScriptStats {
	s := ScriptStats{Script: name, Exact: true, Faults: tm.faults, Reloads: tm.reload}
	for i := range tm.kinds {
		k := &tm.kinds[i]
		if k.calls == 0 {
			continue
		}
		total := k.time
		s.Callbacks = append(s.Callbacks, CallbackStats{Callback: kindNames[i], Calls: k.calls, Errors: k.errors, Timed: k.timed, Total: total, Max: k.max})
		s.Calls += k.calls
		s.Errors += k.errors
		s.Total += total
		s.Max = max(s.Max, k.max)
		s.Exact = s.Exact && k.timed == k.calls
	}
	if tm.frame == frame && tm.frameCalls > 0 {
		s.Frame.Calls = tm.frameCalls
		switch {
		case tm.frameTimed == tm.frameCalls:
			s.Frame.Total = tm.frameTime
		case tm.frameTimed > 0:
			s.Frame.Total = time.Duration(float64(tm.frameTime) * float64(tm.frameCalls) / float64(tm.frameTimed))
		default:
			s.Frame.Total = s.Mean() * time.Duration(tm.frameCalls)
		}
	}
	return s
}
