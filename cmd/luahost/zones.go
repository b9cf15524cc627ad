package main

import (
	"context"
	"fmt"
	"io"
	"math"
	"slices"
	"sync"
	"time"

	"github.com/luahost/luahost/internal/scene"
	"github.com/luahost/luahost/luabind"
	"github.com/luahost/luahost/runtime"
	"github.com/luahost/luahost/snapshot"
	"github.com/luahost/luahost/zones"
)

// maxZones bounds --zones: far more zones than cores only adds
// goroutines and handoffs.
const maxZones = 256

// balanceFrames is how often a zoned world's edges may move toward
// equal work per zone (zones.Options.Balance): often enough to follow
// a crowd walking, rarely enough that the count costs nothing.
const balanceFrames = 10

// sim is a loaded scene that run and bench step: one world, or a world
// over zones.
type sim interface {
	step(dt float64) error
	// stats returns the runtimes' counters and the hosts', summed over
	// the zones.
	stats() (runtime.Stats, luabind.Stats)
	close() error
}

func (w *world) step(dt float64) error { return w.rt.Step(dt) }

func (w *world) stats() (runtime.Stats, luabind.Stats) { return w.rt.Stats(), w.host.Stats() }

func (w *world) close() error { return w.host.Close() }

// loadSim loads the scene at path as one world, or with n > 0 as n zones
// (run --zones n).
func loadSim(path string, n int, cfg loadConfig) (sim, error) {
	if n == 0 {
		return loadScene(path, cfg)
	}
	return loadZoned(path, n, cfg)
}

// zoned is a scene run over zones; prof, with --profile, records its
// frames.
type zoned struct {
	w    *zones.World
	prof *profiler
}

// loadZoned loads the scene at path as n zones: each zone loads every
// script and the blackboard, and spawns the scene's entities whose
// starting position lies in its strip. The zones report errors and
// ctx.log lines on their own goroutines: the writers are shared under a
// lock, one line at a time.
func loadZoned(path string, n int, cfg loadConfig) (*zoned, error) {
	data, err := scene.Read(path)
	if err != nil {
		return nil, err
	}
	sc, err := scene.Parse(path, data)
	if err != nil {
		return nil, err
	}
	layout, err := sceneLayout(sc, n)
	if err != nil {
		return nil, fmt.Errorf("%s: %v", path, err)
	}
	cfg = cfg.shared()
	w, err := zones.New(zones.Options{Layout: layout, Stdout: cfg.stdout, Balance: balanceFrames}, zoneBuild(path, layout, cfg))
	if err != nil {
		return nil, err
	}
	return &zoned{w: w}, nil
}

// zoneBuild returns the build of the zones of the scene at path over
// layout: each zone loads every script and the blackboard, and spawns
// the scene's entities whose starting position lies in its strip.
func zoneBuild(path string, layout zones.Layout, cfg loadConfig) zones.Build {
	return func(i int, out io.Writer, join func(*luabind.Host)) error {
		c := cfg
		c.stdout, c.join = out, join
		c.keep = func(e scene.Entity) bool { return layout.Zone(startOf(e)) == i }
		_, err := loadScene(path, c)
		return err
	}
}

// shared returns cfg with its stderr and log writers shared by the
// zones' goroutines under a lock, one write at a time.
func (cfg loadConfig) shared() loadConfig {
	if cfg.log == nil {
		cfg.log = cfg.stderr
	}
	stderr := &syncWriter{w: cfg.stderr}
	cfg.stderr = stderr
	if cfg.log == stderr.w {
		cfg.log = stderr
	} else {
		cfg.log = &syncWriter{w: cfg.log}
	}
	return cfg
}

// loadZonedSnapshot continues snap, the snapshot of a zoned world read
// from path, over n zones (0: as many as it was saved on), its scripts
// in dir: each zone restores the part of the world in its strip, and
// the effects the world's last frame made are delivered in the first.
func loadZonedSnapshot(path string, snap *snapshot.World, n int, dir string, cfg loadConfig) (*zoned, error) {
	if n == 0 {
		n = len(snap.Zoned.Edges) + 1
	}
	layout, err := zones.SavedLayout(snap, n)
	if err != nil {
		return nil, fmt.Errorf("%s: %v", path, err)
	}
	effects, err := zones.Effects(snap)
	if err != nil {
		return nil, fmt.Errorf("%s: %v", path, err)
	}
	cfg = cfg.shared()
	w, err := zones.New(zones.Options{Layout: layout, Stdout: cfg.stdout, Balance: balanceFrames, Effects: effects}, func(i int, out io.Writer, join func(*luabind.Host)) error {
		c := cfg
		c.stdout = out
		rt := runtime.New(runtime.Options{OnError: runtime.Discard})
		luabind.NewErrorLog(rt, c.stderr)
		opts := c.hostOptions(dir)
		// A saved world's scripts must all load: there is no scene to
		// wait in.
		opts.Lenient = false
		host, err := luabind.New(rt, opts)
		if err != nil {
			return err
		}
		join(host)
		return host.Restore(zones.Part(snap, layout, i))
	})
	if err != nil {
		return nil, fmt.Errorf("%s: %v", path, err)
	}
	return &zoned{w: w}, nil
}

func (z *zoned) step(dt float64) error {
	if z.prof == nil {
		return z.w.Step(dt)
	}
	z.prof.beginFrame()
	err := z.w.Step(dt)
	z.prof.frameEnd()
	return err
}

// frameCounters returns the zones' runtime counters summed (handoffs
// are no spawns), and their
// scripts' figures of the last frame summed by script, in the order the
// zones loaded them, for --profile.
func (z *zoned) frameCounters() (runtime.Stats, []luabind.ScriptStats) {
	var rs runtime.Stats
	var timing []luabind.ScriptStats
	for i := range z.w.Zones() {
		h := z.w.Host(i)
		r, s := h.Runtime().Stats(), h.Stats()
		rs.Frames = r.Frames
		rs.Entities += r.Entities
		rs.Instances += r.Instances
		rs.Spawns += r.Spawns
		rs.Kills += r.Kills
		if s.Frame != r.Frames {
			continue
		}
		for _, m := range s.Timing {
			j := slices.IndexFunc(timing, func(t luabind.ScriptStats) bool { return t.Script == m.Script })
			if j < 0 {
				timing = append(timing, luabind.ScriptStats{Script: m.Script})
				j = len(timing) - 1
			}
			timing[j].Frame.Calls += m.Frame.Calls
			timing[j].Frame.Total += m.Frame.Total
		}
	}
	// An entity handed off arrives in its new zone as a spawn there.
	rs.Spawns -= z.w.Handoffs()
	return rs, timing
}

func (z *zoned) stats() (runtime.Stats, luabind.Stats) {
	var rs runtime.Stats
	var hs luabind.Stats
	for i := range z.w.Zones() {
		h := z.w.Host(i)
		r := h.Runtime().Stats()
		rs.Frames = r.Frames
		rs.Entities += r.Entities
		rs.Instances += r.Instances
		rs.Errors += r.Errors
		s := h.Stats()
		hs.Scripts = s.Scripts
		hs.Reloads += s.Reloads
		mergeTiming(&hs, s.Timing)
	}
	return rs, hs
}

func (z *zoned) close() error { return z.w.Close() }

// syncWriter serialises the writes of several goroutines to w.
type syncWriter struct {
	mu sync.Mutex
	w  io.Writer
}

func (l *syncWriter) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.w.Write(p)
}

// sceneLayout returns the layout of a scene run with --zones n: the
// scene's zones field when its strips number n; otherwise n equal strips
// along the field's axis (x without a field) over the bounding box of
// the entities' starting positions (an entity without a position starts
// at the origin). Under the zoned rules the output is the same either
// way.
func sceneLayout(sc *scene.Scene, n int) (zones.Layout, error) {
	axis := 0
	if sc.Zones != nil {
		axis, _ = zones.ParseAxis(sc.Zones.Axis)
		if l := (zones.Layout{Axis: axis, Edges: sc.Zones.Edges}); l.Zones() == n {
			return l, nil
		}
	}
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, e := range sc.Entities {
		var at float64
		if e.Position != nil {
			at = e.Position[axis]
		}
		lo, hi = min(lo, at), max(hi, at)
	}
	if len(sc.Entities) == 0 {
		lo, hi = 0, 0
	}
	return zones.Split(axis, lo, hi, n), nil
}

// runWatch runs the zoned world in real time at f.fps, until f.frames
// ran (when given) or ctx is done. With --watch, one watcher of the
// scripts' folder serves every zone: between two frames, every zone
// reloads what changed, so that no frame runs one version of a script in
// one zone and another in the next. With --inspect, it serves every
// zone's inspector (zoneinspect.go). It fails when a frame's handoff
// fails, as runFast does.
func (z *zoned) runWatch(ctx context.Context, f *runFlags, times *frameTimes, stderr io.Writer) error {
	var sw *luabind.SharedWatch
	if f.watch {
		dir := z.w.Host(0).Dir()
		var err error
		if sw, err = luabind.WatchShared(ctx, dir); err != nil {
			return err
		}
		defer sw.Close()
		fmt.Fprintf(stderr, "watching %s for changes (Ctrl-C to stop)\n", dir)
	}
	var insp *zoneInspectors
	if f.inspect.addr != "" {
		var err error
		if insp, err = z.serveInspectors(ctx, &f.inspect, stderr); err != nil {
			return err
		}
		defer insp.stop()
	}
	tick := time.NewTicker(time.Duration(float64(time.Second) / f.fps))
	defer tick.Stop()
	for i := 0; !f.set["frames"] || i < f.frames; i++ {
		if insp != nil {
			if !insp.wait(ctx, tick.C) {
				return nil
			}
		} else {
			select {
			case <-ctx.Done():
				return nil
			case <-tick.C:
			}
		}
		if sw != nil {
			changes, errs := sw.Take()
			for _, err := range errs {
				fmt.Fprintf(stderr, "warning: %v\n", err)
			}
			for j := range z.w.Zones() {
				z.w.Host(j).ApplyChanges(changes)
			}
		}
		start := time.Now()
		if err := z.step(f.dt); err != nil {
			return err
		}
		d := time.Since(start)
		if insp != nil {
			d = insp.frameTime()
		}
		*times = append(*times, d)
	}
	return nil
}
