package luabind

import (
	"context"
	"runtime/pprof"
	"time"

	"github.com/luahost/luahost/runtime"
)

// Per-script timing (SPEC 11). The host counts every callback it runs
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
// Totals are then estimated: the timed calls' time scaled by calls over
// timed calls. Maxima are those of the timed calls. A callback's time is
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
	sampleEvery = 16
	// everyTime is the mean call time from which every call of a kind is
	// timed: the clock then costs under 3 % of the call.
	everyTime = 2 * time.Microsecond
	// warmUp is how many calls of a kind are timed before sampling
	// starts, so that a script with few calls is timed exactly.
	warmUp = 16
)

// Stats is a snapshot of a host's counters.
type Stats struct {
	Scripts int
	Reloads int
	// Frame is the runtime's frame number that ScriptStats.Frame figures
	// are for: the frame running, or the last one run.
	Frame uint64
	// Timing is the timing of every loaded script, in load order.
	Timing []ScriptStats
}

// ScriptStats is the timing of one script's callbacks since it was loaded
// (over its hot reloads).
type ScriptStats struct {
	// Script is the script's name, such as "ai/patrol".
	Script string
	// Calls and Errors count the callbacks run and those that failed.
	Calls, Errors int64
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
	// them when it is less than Calls.
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
	kinds [numKinds]kindTiming
	// frame is the frame whose figures the frame* fields hold.
	frame                  uint64
	frameCalls, frameTimed int64
	frameTime              time.Duration
}

// kindTiming is one callback kind's counters. sampled is set once the
// kind's first warmUp calls were timed, while its timed calls average
// less than everyTime: until then every call is timed.
type kindTiming struct {
	calls, timed, errors int64
	time, max            time.Duration
	sampled              bool
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
	if tm.frame != st.frame {
		tm.frame, tm.frameCalls, tm.frameTimed, tm.frameTime = st.frame, 0, 0, 0
	}
	k.calls++
	tm.frameCalls++
	if err != nil && err != errNested {
		k.errors++
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
	k.timed++
	k.time += self
	k.max = max(k.max, self)
	k.sampled = k.timed >= warmUp && k.time < c.every*time.Duration(k.timed)
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

// Stats returns the number of loaded scripts, of hot reloads applied, and
// every script's timing. It allocates the Timing slice; it costs
// O(scripts).
func (h *Host) Stats() Stats {
	s := Stats{Scripts: len(h.order), Reloads: h.reloads, Frame: h.rt.Frame(), Timing: make([]ScriptStats, 0, len(h.order))}
	for _, sc := range h.order {
		s.Timing = append(s.Timing, sc.timing.stats(sc.name, s.Frame))
	}
	return s
}

// stats returns the counters as a ScriptStats, with frame's figures.
func (tm *timing) stats(name string, frame uint64) ScriptStats {
	s := ScriptStats{Script: name, Exact: true}
	for i := range tm.kinds {
		k := &tm.kinds[i]
		if k.calls == 0 {
			continue
		}
		total := k.time
		if k.timed > 0 && k.timed < k.calls {
			total = time.Duration(float64(k.time) * float64(k.calls) / float64(k.timed))
		}
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
