package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
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

	set map[string]bool
}

// cmdRun implements "luahost run" and, with bench set, "luahost bench".
func cmdRun(args []string, stdout, stderr io.Writer, bench bool) int {
	name, synopsis, defaultFrames := "run", "luahost run SCENE [flags]", 1
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
	if bench {
		fs.BoolVar(&f.json, "json", false, "print the figures as one JSON object")
	} else {
		fs.BoolVar(&f.watch, "watch", false, "run in real time and hot-reload changed scripts")
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
	case f.dt < 0:
		return bad("--dt must not be negative")
	case f.fps <= 0:
		return bad("--fps must be positive")
	case f.budget < 0:
		return bad("--budget must not be negative")
	}
	if f.watch && !f.set["dt"] {
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
	// Signals are caught from here on: Ctrl-C during a long load lets the
	// load finish, runs no frame, and shuts the scene down cleanly; a
	// second one exits at once.
	ctx, stop := notifyStop(stderr)
	defer stop()
	w, err := loadScene(pos[0], cfg)
	if err != nil {
		fmt.Fprintf(stderr, "luahost %s: %v\n", name, err)
		return exitUsage
	}
	var times frameTimes
	var loopErr error
	if f.watch {
		loopErr = w.runWatch(ctx, &f, &times, stderr)
	} else {
		w.runFast(ctx, &f, &times, stderr)
	}
	rs, hs := w.rt.Stats(), w.host.Stats()
	if err := w.host.Close(); err != nil && loopErr == nil {
		loopErr = err
	}
	if loopErr != nil {
		fmt.Fprintf(stderr, "luahost %s: %v\n", name, loopErr)
		return exitUsage
	}
	errs := w.rt.Stats().Errors
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
		fmt.Fprintf(stderr, "frames     %d\nentities   %d\ninstances  %d\nerrors     %d\nreloads    %d\n%s",
			len(times), rs.Entities, rs.Instances, errs, hs.Reloads, sum.table())
	}
	if f.strict && errs > 0 {
		return exitErrors
	}
	return exitOK
}

// runFast runs the frames back to back, stopping early (after the frame
// under way) when ctx is done.
func (w *world) runFast(ctx context.Context, f *runFlags, times *frameTimes, stderr io.Writer) {
	prog := newProgress(stderr, f.frames)
	for i := 0; i < f.frames && ctx.Err() == nil; i++ {
		start := time.Now()
		// Step fails only when called from inside a frame or after
		// Close, neither of which can happen here.
		_ = w.rt.Step(f.dt)
		*times = append(*times, time.Since(start))
		prog.update(i + 1)
	}
	prog.done()
}

// runWatch runs fixed steps in real time at f.fps, hot-reloading changed
// scripts, until f.frames ran (when given) or ctx is done.
func (w *world) runWatch(ctx context.Context, f *runFlags, times *frameTimes, stderr io.Writer) error {
	stopWatch, err := w.host.Watch(ctx)
	if err != nil {
		return err
	}
	defer stopWatch()
	fmt.Fprintf(stderr, "watching %s for changes (Ctrl-C to stop)\n", w.host.Dir())
	tick := time.NewTicker(time.Duration(float64(time.Second) / f.fps))
	defer tick.Stop()
	for i := 0; !f.set["frames"] || i < f.frames; i++ {
		select {
		case <-ctx.Done():
			return nil
		case <-tick.C:
		}
		start := time.Now()
		_ = w.rt.Step(f.dt)
		*times = append(*times, time.Since(start))
	}
	return nil
}
