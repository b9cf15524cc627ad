package main

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"sync"
	"time"

	"github.com/luahost/luahost/luabind"
	"github.com/luahost/luahost/runtime"
)

// run --profile FILE writes a Chrome trace-event JSON file, the
// format Perfetto (ui.perfetto.dev) and chrome://tracing open:
//
//   - a complete event ("ph": "X") per frame, named "frame N", with the
//     frame's entities, instances, spawns and kills as arguments, and a
//     counter ("ph": "C") of the live entities;
//   - inside it, a complete event per script that ran in the frame, named
//     after the script: the time of all its instances' callbacks (their
//     own time, without callbacks nested in them), with the number of
//     calls as an argument. Scripts are laid end to end from the frame's
//     start in load order: their length is what they cost, their place
//     says nothing of when they ran;
//   - instant events ("ph": "i"): "error" (per script and frame: the first
//     message and how many), "reload" (per reload, applied or refused),
//     and "spawns" and "kills" at the start of a frame that spawned or
//     killed at least burstSize entities.
//
// The file grows with frames × scripts, never with entities. Timestamps
// are microseconds since the world started. Scripts are timed as without
// a profile (luabind.TimingSampled), so that the frames keep their cost:
// a script's time in a frame is estimated from its timed calls there
// (exact for the first 16 calls of each callback kind and for slow
// kinds), or from its mean when none of them was timed.

// burstSize is the number of spawns (or kills) in one frame that makes
// an instant event.
const burstSize = 10

// maxProfileMessage bounds an error message in the profile.
const maxProfileMessage = 300

// traceEvent is one event of the trace-event format.
type traceEvent struct {
	Name string         `json:"name"`
	Cat  string         `json:"cat,omitempty"`
	Ph   string         `json:"ph"`
	Ts   float64        `json:"ts"`
	Dur  *float64       `json:"dur,omitempty"`
	Pid  int            `json:"pid"`
	Tid  int            `json:"tid"`
	S    string         `json:"s,omitempty"`
	Args map[string]any `json:"args,omitempty"`
}

// profiler writes the profile of one world as its frames run: of one
// runtime, or summed over the zones of a zoned world.
type profiler struct {
	// counters returns the world's counters after a frame, and its
	// scripts' figures of that frame.
	counters func() (runtime.Stats, []luabind.ScriptStats)
	out      io.Closer
	w        *bufio.Writer
	err      error
	start    time.Time
	// frameStart is when the running frame began; prev the runtime's
	// counters after the last frame.
	frameStart time.Time
	prev       runtime.Stats
	events     int
	// errs are the errors reported since the last frame's end, by
	// script, in the order they came; the zones of a zoned world report
	// on their own goroutines, under mu.
	mu   sync.Mutex
	errs []scriptErrors
}

// scriptErrors is one script's errors in one frame.
type scriptErrors struct {
	script, first string
	at            time.Time
	count         int
}

// profileOptions sets what a profiled host needs: the reload hook that p
// (set once the host exists) records reloads with.
func profileOptions(p **profiler) func(*luabind.Options) {
	return func(o *luabind.Options) {
		next := o.OnReload
		o.OnReload = func(r luabind.ReloadInfo) {
			if next != nil {
				next(r)
			}
			if *p != nil {
				(*p).reload(r)
			}
		}
	}
}

// newProfiler starts the profile of s in out, which it closes at the
// end; the world's frames are recorded from the next step on. A zoned
// world's figures are summed over its zones: its frames' entities,
// instances, spawns and kills, and each script's calls and time.
func newProfiler(s sim, out io.WriteCloser, title string) *profiler {
	p := &profiler{out: out, w: bufio.NewWriter(out), start: time.Now()}
	switch s := s.(type) {
	case *world:
		p.counters = func() (runtime.Stats, []luabind.ScriptStats) {
			rs, hs := s.rt.Stats(), s.host.Stats()
			if hs.Frame != rs.Frames {
				return rs, nil
			}
			return rs, hs.Timing
		}
		s.rt.BeforeStep(p.beginFrame)
		s.rt.AfterStep(p.frameEnd)
		s.rt.OnReport(p.report)
	case *zoned:
		p.counters = s.frameCounters
		s.prof = p
		for i := range s.w.Zones() {
			s.w.Host(i).Runtime().OnReport(p.report)
		}
	}
	p.prev, _ = p.counters()
	_, p.err = p.w.WriteString(`{"displayTimeUnit":"ms","traceEvents":[` + "\n")
	p.write(traceEvent{Name: "process_name", Ph: "M", Pid: 1, Tid: 1, Args: map[string]any{"name": title}})
	p.write(traceEvent{Name: "thread_name", Ph: "M", Pid: 1, Tid: 1, Args: map[string]any{"name": "frames"}})
	return p
}

// beginFrame notes when a frame starts.
func (p *profiler) beginFrame() { p.frameStart = time.Now() }

// micros returns t as microseconds since the profile started.
func (p *profiler) micros(t time.Time) float64 { return toMicros(t.Sub(p.start)) }

// toMicros returns d in microseconds, to the nanosecond.
func toMicros(d time.Duration) float64 { return float64(d.Nanoseconds()) / 1e3 }

func (p *profiler) write(ev traceEvent) {
	if p.err != nil {
		return
	}
	b, err := json.Marshal(ev)
	if err != nil {
		p.err = err
		return
	}
	if p.events > 0 {
		p.err = p.w.WriteByte(',')
	}
	p.events++
	if p.err == nil {
		_, p.err = p.w.Write(append(b, '\n'))
	}
}

// frameEnd records the frame that just ran: its event, its scripts', the
// entity counter, bursts and the errors reported during it.
func (p *profiler) frameEnd() {
	end := time.Now()
	rs, timing := p.counters()
	ts := p.micros(p.frameStart)
	dur := toMicros(end.Sub(p.frameStart))
	spawns, kills := rs.Spawns-p.prev.Spawns, rs.Kills-p.prev.Kills
	p.prev = rs
	p.write(traceEvent{Name: fmt.Sprintf("frame %d", rs.Frames), Cat: "frame", Ph: "X", Ts: ts, Dur: &dur, Pid: 1, Tid: 1,
		Args: map[string]any{"frame": rs.Frames, "entities": rs.Entities, "instances": rs.Instances, "spawns": spawns, "kills": kills}})
	at := p.frameStart.Sub(p.start)
	for _, s := range timing {
		if s.Frame.Calls == 0 {
			continue
		}
		d := toMicros(s.Frame.Total)
		p.write(traceEvent{Name: s.Script, Cat: "script", Ph: "X", Ts: toMicros(at), Dur: &d, Pid: 1, Tid: 1, Args: map[string]any{"calls": s.Frame.Calls}})
		at += s.Frame.Total
	}
	p.write(traceEvent{Name: "entities", Ph: "C", Ts: ts, Pid: 1, Tid: 1, Args: map[string]any{"entities": rs.Entities}})
	// Bursts are marked at the frame's start.
	if spawns >= burstSize {
		p.instant("spawns", p.frameStart, map[string]any{"count": spawns})
	}
	if kills >= burstSize {
		p.instant("kills", p.frameStart, map[string]any{"count": kills})
	}
	p.flushErrors()
}

func (p *profiler) instant(name string, at time.Time, args map[string]any) {
	p.write(traceEvent{Name: name, Cat: name, Ph: "i", Ts: p.micros(at), Pid: 1, Tid: 1, S: "t", Args: args})
}

// report gathers an error reported by the runtime, by script.
func (p *profiler) report(err error) {
	p.mu.Lock()
	defer p.mu.Unlock()
	script := "?"
	var se *runtime.ScriptError
	if errors.As(err, &se) && se.Script != "" {
		script = se.Script
	}
	for i := range p.errs {
		if p.errs[i].script == script {
			p.errs[i].count++
			return
		}
	}
	msg := err.Error()
	if se != nil {
		msg = se.Message
	}
	if len(msg) > maxProfileMessage {
		msg = msg[:maxProfileMessage] + "..."
	}
	p.errs = append(p.errs, scriptErrors{script: script, first: msg, at: time.Now(), count: 1})
}

// flushErrors writes an "error" instant per script with errors gathered.
func (p *profiler) flushErrors() {
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, e := range p.errs {
		p.instant("error", e.at, map[string]any{"script": e.script, "message": e.first, "count": e.count})
	}
	p.errs = p.errs[:0]
}

// reload records a hot reload, applied or refused.
func (p *profiler) reload(r luabind.ReloadInfo) {
	args := map[string]any{"script": r.Script, "instances": r.Instances, "ms": float64(r.Duration.Microseconds()) / 1e3}
	if r.Err != nil {
		args["error"] = r.Err.Error()
	}
	p.instant("reload", time.Now(), args)
}

// close ends the profile: errors reported after the last frame (at
// shutdown) are written, then the closing brackets.
func (p *profiler) close() error {
	p.flushErrors()
	if p.err == nil {
		_, p.err = p.w.WriteString("]}\n")
	}
	if p.err == nil {
		p.err = p.w.Flush()
	}
	if err := p.out.Close(); p.err == nil {
		p.err = err
	}
	return p.err
}

// openProfile creates the profile file at path.
func openProfile(path string) (*os.File, error) {
	f, err := os.Create(path)
	if err != nil {
		return nil, fmt.Errorf("--profile: %v", err)
	}
	return f, nil
}
