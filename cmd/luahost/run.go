package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"math"
	"time"

	"github.com/luahost/luahost/luabind"
)

// runFlags are the flags of run and bench.
type runFlags struct {
	frames int
	dt     float64
	fps    float64
	watch  bool
	seed   int64
	budget time.Duration
	// ceiling is --memory-ceiling in MiB (0: the default, negative: off).
	ceiling int64
	strict  bool
	stats   bool
	json    bool
	// zones is --zones: the number of zones (0: not zoned).
	zones   int
	inspect inspectFlags
	// profile is --profile: the trace file to write (profile.go).
	profile string

	set map[string]bool
}

// The bounds of --fps, --dt and --memory-ceiling. A frame interval must
// be a time.Ticker's positive duration; a step above a day, or a frame
// rate above 10,000, is a typo rather than a world.
const (
	minFPS     = 0.001
	maxFPS     = 10_000
	maxDT      = 86_400
	maxCeiling = math.MaxInt64 >> 20
)

// clockError checks the --fps, --dt and --memory-ceiling (MiB) of run,
// bench and zone, returning what is wrong or "".
func clockError(fps, dt float64, ceilingMiB int64) string {
	switch {
	case !(fps >= minFPS && fps <= maxFPS): // NaN included
		return fmt.Sprintf("--fps must be from %g to %d, got %g", minFPS, maxFPS, fps)
	case !(dt >= 0 && dt <= maxDT):
		return fmt.Sprintf("--dt must be from 0 to %d seconds, got %g", maxDT, dt)
	case ceilingMiB > maxCeiling:
		return fmt.Sprintf("--memory-ceiling must be at most %d MiB", int64(maxCeiling))
	}
	return ""
}

// cmdRun implements "luahost run" and, with bench set, "luahost bench".
func cmdRun(args []string, stdout, stderr io.Writer, bench bool) int {
	name, synopsis, defaultFrames := "run", "luahost run SCENE|SNAPSHOT [flags]", 1
	if bench {
		name, synopsis, defaultFrames = "bench", "luahost bench SCENE [flags]", 100
	}
	f := runFlags{set: make(map[string]bool)}
	fs := newFlagSet(name, synopsis, stderr)
	// bench takes the flags of run but --watch (SPEC 8), so that a run
	// command line can be benchmarked as it is.
	framesHelp, dtHelp, fpsHelp := "number of frames to run (with --watch, default: until interrupted)",
		"fixed time step in seconds (with --watch, default: 1/fps)",
		"frames per second with --watch"
	if bench {
		framesHelp, dtHelp, fpsHelp = "number of frames to run", "fixed time step in seconds",
			"ignored by bench, which runs frames back to back"
	}
	fs.IntVar(&f.frames, "frames", defaultFrames, framesHelp)
	fs.Float64Var(&f.dt, "dt", 1.0/60, dtHelp)
	fs.Float64Var(&f.fps, "fps", 60, fpsHelp)
	fs.Int64Var(&f.seed, "seed", 0, "seed for the scripts' math.random (default: the scene's seed)")
	fs.DurationVar(&f.budget, "budget", luabind.DefaultBudget, "time budget of each callback (0: no budget, for trusted scripts)")
	fs.Int64Var(&f.ceiling, "memory-ceiling", 0, "live heap in MiB near which the instance holding the most memory is faulted (0: a quarter of the machine's memory, never above GOMEMLIMIT; -1: off)")
	fs.BoolVar(&f.strict, "strict", false, "exit 1 when any script error happened")
	fs.BoolVar(&f.stats, "stats", false, "print statistics to stderr at the end")
	fs.StringVar(&f.profile, "profile", "", "write a trace of the frames and of each script's time in them to `FILE` (Chrome trace-event JSON, for Perfetto)")
	fs.IntVar(&f.zones, "zones", 0, "run the world as N zones in lockstep, one core each (the scene's zones field, or N equal strips along x)")
	if bench {
		fs.BoolVar(&f.json, "json", false, "print the figures as one JSON object")
	} else {
		fs.BoolVar(&f.watch, "watch", false, "run in real time and hot-reload changed scripts")
		f.inspect.register(fs)
	}
	var sf snapFlags
	if !bench {
		sf.register(fs)
	}
	pos, err := parseFlags(fs, args, stdout)
	if err != nil {
		return usageStatus(err)
	}
	fs.Visit(func(fl *flag.Flag) { f.set[fl.Name] = true })
	bad := func(format string, a ...any) int {
		fmt.Fprintf(stderr, "luahost %s: %s\n", name, fmt.Sprintf(format, a...))
		fs.Usage()
		return exitUsage
	}
	switch {
	case len(pos) != 1:
		return bad("want exactly one SCENE, got %d arguments", len(pos))
	case f.frames < 0:
		return bad("--frames must not be negative")
	case clockError(f.fps, f.dt, f.ceiling) != "":
		return bad("%s", clockError(f.fps, f.dt, f.ceiling))
	case f.budget < 0:
		return bad("--budget must not be negative")
	case f.zones < 0 || (f.set["zones"] && f.zones == 0):
		return bad("--zones must be 1 or more")
	case f.zones > maxZones:
		return bad("--zones must be at most %d", maxZones)
	case f.zones > 0 && f.watch:
		return bad("--zones cannot be combined with --watch")
	case f.zones > 0 && f.inspect.addr != "":
		return bad("--zones cannot be combined with --inspect")
	case f.zones > 0 && f.profile != "":
		return bad("--zones cannot be combined with --profile")
	case f.profile != "" && sameFile(f.profile, pos[0]):
		return bad("--profile %s: is the world being run, which the trace would overwrite; write it to another file", f.profile)
	case f.profile != "" && sf.save != "" && (f.profile == sf.save || sameFile(f.profile, sf.save)):
		return bad("--profile and --save name the same file")
	}
	realtime := f.watch || f.inspect.addr != ""
	if realtime && !f.set["dt"] {
		f.dt = 1 / f.fps
	}
	cfg := loadConfig{budget: cliBudget(f.budget), ceiling: cliCeiling(f.ceiling), stdout: stdout, stderr: stderr}
	if bench {
		// Script output is discarded, both print and ctx.log; errors are
		// still reported on stderr.
		cfg.stdout = io.Discard
		cfg.log = io.Discard
	}
	if f.set["seed"] {
		cfg.seed = &f.seed
	}
	var prof *profiler
	if f.profile != "" {
		cfg.tune = profileOptions(&prof)
	}
	// Signals are caught from here on: Ctrl-C during a long load lets the
	// load finish, runs no frame, and shuts the scene down cleanly; a
	// second one exits at once.
	ctx, stop := notifyStop(stderr)
	defer stop()
	w, err := sf.load(pos[0], f.zones, cfg, f.set["seed"])
	if err != nil {
		fmt.Fprintf(stderr, "luahost %s: %v\n", name, err)
		return exitUsage
	}
	if f.profile != "" {
		out, err := openProfile(f.profile)
		if err != nil {
			_ = w.close()
			fmt.Fprintf(stderr, "luahost %s: %v\n", name, err)
			return exitUsage
		}
		prof = newProfiler(w.(*world), out, "luahost "+name+" "+pos[0])
	}
	var times frameTimes
	var loopErr error
	if realtime {
		loopErr = w.(*world).runWatch(ctx, &f, &times, stderr)
	} else {
		loopErr = runFast(ctx, w, &f, &times, stderr)
	}
	saveErr := sf.finish(w, stderr)
	rs, hs := w.stats()
	if err := w.close(); err != nil && loopErr == nil {
		loopErr = err
	}
	if prof != nil {
		if err := prof.close(); err != nil && loopErr == nil {
			loopErr = fmt.Errorf("--profile: %v", err)
		}
	}
	if loopErr != nil {
		fmt.Fprintf(stderr, "luahost %s: %v\n", name, loopErr)
		return exitUsage
	}
	errs, hs := w.stats()
	sum := times.summary()
	switch {
	case !bench:
	case f.json:
		out, _ := json.Marshal(struct {
			Frames    int     `json:"frames"`
			Entities  int     `json:"entities"`
			Instances int     `json:"instances"`
			Min       float64 `json:"min_ms"`
			Median    float64 `json:"median_ms"`
			P99       float64 `json:"p99_ms"`
			Max       float64 `json:"max_ms"`
		}{len(times), rs.Entities, rs.Instances, sum.min, sum.median, sum.p99, sum.max})
		fmt.Fprintf(stdout, "%s\n", out)
	default:
		fmt.Fprintf(stdout, "frames     %d\nentities   %d\ninstances  %d\n%s", len(times), rs.Entities, rs.Instances, sum.table())
	}
	if f.stats {
		fmt.Fprintf(stderr, "frames     %d\nentities   %d\ninstances  %d\nerrors     %d\nreloads    %d\n%s\n%s",
			len(times), rs.Entities, rs.Instances, errs.Errors, hs.Reloads, sum.table(), scriptTable(hs.Timing))
	}
	if saveErr != nil {
		fmt.Fprintf(stderr, "luahost %s: %v\n", name, saveErr)
		return exitErrors
	}
	if f.strict && errs.Errors > 0 {
		return exitErrors
	}
	return exitOK
}

// runFast runs the frames back to back, stopping early (after the frame
// under way) when ctx is done. It fails only when a zoned world's
// handoff fails: a world of one zone steps until the end.
func runFast(ctx context.Context, w sim, f *runFlags, times *frameTimes, stderr io.Writer) error {
	prog := newProgress(stderr, f.frames)
	defer prog.done()
	for i := 0; i < f.frames && ctx.Err() == nil; i++ {
		start := time.Now()
		if err := w.step(f.dt); err != nil {
			return err
		}
		*times = append(*times, time.Since(start))
		prog.update(i + 1)
	}
	return nil
}

// runWatch runs fixed steps in real time at f.fps, until f.frames ran
// (when given) or ctx is done: with --watch hot-reloading changed scripts,
// with --inspect serving the inspector between frames (a paused world
// waits inside Step, and its frame time leaves the pause out).
func (w *world) runWatch(ctx context.Context, f *runFlags, times *frameTimes, stderr io.Writer) error {
	if f.watch {
		stopWatch, err := w.host.Watch(ctx)
		if err != nil {
			return err
		}
		defer stopWatch()
		fmt.Fprintf(stderr, "watching %s for changes (Ctrl-C to stop)\n", w.host.Dir())
	}
	var pending <-chan struct{}
	var insp *inspector
	if f.inspect.addr != "" {
		var err error
		if insp, err = w.serveInspector(ctx, &f.inspect, stderr); err != nil {
			return err
		}
		defer insp.stop()
		pending = insp.in.Pending()
	}
	tick := time.NewTicker(time.Duration(float64(time.Second) / f.fps))
	defer tick.Stop()
	for i := 0; !f.set["frames"] || i < f.frames; {
		select {
		case <-ctx.Done():
			return nil
		case <-pending:
			insp.in.Drain()
			continue
		case <-tick.C:
		}
		start := time.Now()
		_ = w.rt.Step(f.dt)
		d := time.Since(start)
		if insp != nil {
			d = insp.in.FrameTime()
		}
		*times = append(*times, d)
		i++
	}
	return nil
}
