package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"math"
	"time"

	"github.com/luahost/luahost/inspect"
	"github.com/luahost/luahost/luabind"
	"github.com/luahost/luahost/runtime"
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
	// debug is --debug and --debug-nowait (debug.go).
	debug debugFlags
	// rewind is --rewind, --rewind-every and --rewind-memory (rewind.go).
	rewind rewindFlags

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

// runCommand is what one of run and bench is made of: its name and
// synopsis, its flags, and what it does with the figures at the end.
type runCommand struct {
	name, synopsis string
	fs             *flag.FlagSet
	f              runFlags
	sf             snapFlags
	// quiet discards what scripts print, both print and ctx.log; errors
	// are still reported on stderr.
	quiet bool
	// report prints the command's own figures to stdout after the run.
	report func(stdout io.Writer, r runResult)
	// gates are the world's stdout and stderr, shut while a rewind
	// replays frames (--rewind); dbg is the host's debugger, made for
	// --debug and --inspect.
	gates []*gate
	dbg   *luabind.Debugger
	// cfg is what the world was loaded with.
	cfg loadConfig
}

// runHelp are the help texts of the flags whose meaning differs between
// run and bench.
type runHelp struct {
	frames, dt, fps string
}

// newRunCommand returns a command with the flags run and bench share:
// bench takes the flags of run but --watch, so that a run command line
// can be benchmarked as it is.
func newRunCommand(name, synopsis string, frames int, help runHelp, stderr io.Writer) *runCommand {
	c := &runCommand{name: name, synopsis: synopsis, f: runFlags{set: make(map[string]bool)}}
	c.fs = newFlagSet(name, synopsis, stderr)
	fs, f := c.fs, &c.f
	fs.IntVar(&f.frames, "frames", frames, help.frames)
	fs.Float64Var(&f.dt, "dt", 1.0/60, help.dt)
	fs.Float64Var(&f.fps, "fps", 60, help.fps)
	fs.Int64Var(&f.seed, "seed", 0, "seed for the scripts' math.random (default: the scene's seed)")
	budgetVar(fs, &f.budget, budgetHelp)
	fs.Int64Var(&f.ceiling, "memory-ceiling", 0, "live heap in MiB near which the instance holding the most memory is faulted (0: a quarter of the machine's memory, never above GOMEMLIMIT; -1: off)")
	fs.BoolVar(&f.strict, "strict", false, "exit 1 when any script error happened")
	fs.BoolVar(&f.stats, "stats", false, "print statistics to stderr at the end")
	fs.StringVar(&f.profile, "profile", "", "write a trace of the frames and of each script's time in them to `FILE` (Chrome trace-event JSON, for Perfetto)")
	fs.IntVar(&f.zones, "zones", 0, "run the world as N zones in lockstep, one core each (the scene's zones field, or N equal strips along x)")
	return c
}

// cmdRun implements "luahost run".
func cmdRun(args []string, stdout, stderr io.Writer) int {
	c := newRunCommand("run", "luahost run SCENE|SNAPSHOT [flags]", 1, runHelp{
		frames: "number of frames to run (with --watch, default: until interrupted)",
		dt:     "fixed time step in seconds (with --watch, default: 1/fps)",
		fps:    "frames per second with --watch",
	}, stderr)
	c.fs.BoolVar(&c.f.watch, "watch", false, "run in real time and hot-reload changed scripts")
	c.f.inspect.register(c.fs)
	c.f.debug.register(c.fs)
	c.f.rewind.register(c.fs)
	c.sf.register(c.fs)
	return c.main(args, stdout, stderr)
}

// cmdBench implements "luahost bench": run's frames back to back, with
// the script output discarded and the frame times printed.
func cmdBench(args []string, stdout, stderr io.Writer) int {
	c := newRunCommand("bench", "luahost bench SCENE [flags]", 100, runHelp{
		frames: "number of frames to run",
		dt:     "fixed time step in seconds",
		fps:    "ignored by bench, which runs frames back to back",
	}, stderr)
	c.fs.BoolVar(&c.f.json, "json", false, "print the figures as one JSON object")
	c.quiet = true
	c.report = func(stdout io.Writer, r runResult) { r.printBench(stdout, c.f.json) }
	return c.main(args, stdout, stderr)
}

// main parses args, runs the world and reports, returning the exit status.
func (c *runCommand) main(args []string, stdout, stderr io.Writer) int {
	pos, err := parseFlags(c.fs, args, stdout)
	if err != nil {
		return usageStatus(err)
	}
	c.fs.Visit(func(fl *flag.Flag) { c.f.set[fl.Name] = true })
	if msg := c.usageError(pos); msg != "" {
		fmt.Fprintf(stderr, "luahost %s: %s\n", c.name, msg)
		c.fs.Usage()
		return exitUsage
	}
	if c.realtime() && !c.f.set["dt"] {
		c.f.dt = 1 / c.f.fps
	}
	// Signals are caught from here on: Ctrl-C during a long load lets the
	// load finish, runs no frame, and shuts the scene down cleanly; a
	// second one exits at once.
	ctx, stop := notifyStop(stderr)
	defer stop()
	r, err := c.run(ctx, pos[0], stdout, stderr)
	if err != nil {
		fmt.Fprintf(stderr, "luahost %s: %v\n", c.name, err)
		c.f.debug.close(exitUsage)
		return exitUsage
	}
	status := c.status(r, stdout, stderr)
	c.f.debug.close(status)
	return status
}

// status reports the run's figures and returns its exit status.
func (c *runCommand) status(r runResult, stdout, stderr io.Writer) int {
	if c.report != nil {
		c.report(stdout, r)
	}
	if c.f.stats {
		r.printStats(stderr)
	}
	if r.saveErr != nil {
		fmt.Fprintf(stderr, "luahost %s: %v\n", c.name, r.saveErr)
		return exitErrors
	}
	if c.f.strict && r.errors > 0 {
		return exitErrors
	}
	return exitOK
}

// usageError returns what is wrong with the command line, or "".
func (c *runCommand) usageError(pos []string) string {
	f, sf := &c.f, &c.sf
	switch {
	case len(pos) != 1:
		return fmt.Sprintf("want exactly one SCENE, got %d arguments", len(pos))
	case f.frames < 0:
		return "--frames must not be negative"
	case clockError(f.fps, f.dt, f.ceiling) != "":
		return clockError(f.fps, f.dt, f.ceiling)
	case f.budget < 0:
		return "--budget must not be negative"
	case f.zones < 0 || (f.set["zones"] && f.zones == 0):
		return "--zones must be 1 or more"
	case f.zones > maxZones:
		return fmt.Sprintf("--zones must be at most %d", maxZones)
	case f.zones > 0 && f.debug.addr != "":
		return "--zones cannot be combined with --debug"
	case f.debug.nowait && f.debug.addr == "":
		return "--debug-nowait goes with --debug"
	case f.rewind.usageError(f) != "":
		return f.rewind.usageError(f)
	case f.profile != "" && sameFile(f.profile, pos[0]):
		return fmt.Sprintf("--profile %s: is the world being run, which the trace would overwrite; write it to another file", f.profile)
	case f.profile != "" && sf.save != "" && (f.profile == sf.save || sameFile(f.profile, sf.save)):
		return "--profile and --save name the same file"
	}
	return ""
}

// realtime reports whether the world runs on the clock (--watch or
// --inspect) rather than frames back to back.
func (c *runCommand) realtime() bool {
	return c.f.watch || c.f.inspect.addr != "" || c.f.rewind.frames > 0
}

// loadConfig returns what loading the world takes from the flags; prof
// receives the profiler once it exists, with --profile.
func (c *runCommand) loadConfig(stdout, stderr io.Writer, prof **profiler) loadConfig {
	cfg := loadConfig{budget: cliBudget(c.f.budget), ceiling: cliCeiling(c.f.ceiling), stdout: stdout, stderr: stderr, lenient: c.realtime()}
	if c.quiet {
		cfg.stdout = io.Discard
		cfg.log = io.Discard
	}
	if c.f.set["seed"] {
		cfg.seed = &c.f.seed
	}
	if c.f.profile != "" {
		cfg.tune = profileOptions(prof)
	}
	if c.f.rewind.frames > 0 {
		out, errOut := &gate{w: cfg.stdout}, &gate{w: stderr}
		c.gates = []*gate{out, errOut}
		cfg.stdout, cfg.stderr = out, errOut
		if cfg.log != nil {
			lg := &gate{w: cfg.log}
			c.gates = append([]*gate{lg}, c.gates...)
			cfg.log = lg
		}
	}
	if c.f.debug.addr != "" || c.f.inspect.addr != "" {
		cfg.attach = func(h *luabind.Host) error {
			c.dbg = h.Debugger()
			if c.f.debug.addr == "" {
				return nil
			}
			return c.f.debug.attach(h, stderr)
		}
	}
	return cfg
}

// runResult is what a finished run reports.
type runResult struct {
	times frameTimes
	// rs are the runtime's counters at the last frame, before shutdown.
	rs runtime.Stats
	// hs are the host's counters after shutdown.
	hs luabind.Stats
	// errors counts the script errors, shutdown's included.
	errors int
	// distinct are the distinct errors, and dropped how many more there
	// were (a world of one zone only).
	distinct []luabind.ErrorCount
	dropped  int
	// saveErr is why --save or --hash failed.
	saveErr error
}

// run loads the world at path, steps it, saves it (--save, --hash) and
// shuts it down. An error means the world did not load or its run
// failed; a failed save is in the result.
func (c *runCommand) run(ctx context.Context, path string, stdout, stderr io.Writer) (runResult, error) {
	var prof *profiler
	c.cfg = c.loadConfig(stdout, stderr, &prof)
	w, err := c.sf.load(path, c.f.zones, c.cfg, c.f.set["seed"])
	if err != nil {
		return runResult{}, err
	}
	if c.f.profile != "" {
		out, err := openProfile(c.f.profile)
		if err != nil {
			_ = w.close()
			return runResult{}, err
		}
		prof = newProfiler(w, out, "luahost "+c.name+" "+path)
	}
	var r runResult
	c.f.debug.wait(ctx)
	loopErr := c.loop(ctx, w, &r.times, stderr)
	r.saveErr = c.sf.finish(w, stderr)
	r.rs, _ = w.stats()
	if err := w.close(); err != nil && loopErr == nil {
		loopErr = err
	}
	if prof != nil {
		if err := prof.close(); err != nil && loopErr == nil {
			loopErr = fmt.Errorf("--profile: %v", err)
		}
	}
	if loopErr != nil {
		return runResult{}, loopErr
	}
	errs, hs := w.stats()
	r.errors, r.hs = errs.Errors, hs
	if one, ok := w.(*world); ok && one.errs != nil {
		r.distinct, r.dropped = one.errs.Distinct()
	}
	return r, nil
}

// loop steps w: on the clock with --watch or --inspect, else back to back.
func (c *runCommand) loop(ctx context.Context, w sim, times *frameTimes, stderr io.Writer) error {
	switch w := w.(type) {
	case *world:
		if c.realtime() {
			return w.runWatch(ctx, c, times, stderr)
		}
	case *zoned:
		if c.realtime() {
			return w.runWatch(ctx, &c.f, times, stderr)
		}
	}
	return runFast(ctx, w, &c.f, times, stderr)
}

// printBench prints bench's figures: a table, or one JSON object.
func (r runResult) printBench(stdout io.Writer, asJSON bool) {
	sum := r.times.summary()
	if !asJSON {
		fmt.Fprintf(stdout, "frames     %d\nentities   %d\ninstances  %d\n%s", len(r.times), r.rs.Entities, r.rs.Instances, sum.table())
		return
	}
	out, _ := json.Marshal(struct {
		Frames    int     `json:"frames"`
		Entities  int     `json:"entities"`
		Instances int     `json:"instances"`
		Min       float64 `json:"min_ms"`
		Median    float64 `json:"median_ms"`
		P99       float64 `json:"p99_ms"`
		Max       float64 `json:"max_ms"`
	}{len(r.times), r.rs.Entities, r.rs.Instances, sum.min, sum.median, sum.p99, sum.max})
	fmt.Fprintf(stdout, "%s\n", out)
}

// printStats prints --stats to stderr.
func (r runResult) printStats(stderr io.Writer) {
	fmt.Fprintf(stderr, "frames     %d\nentities   %d\ninstances  %d\nerrors     %d\nreloads    %d\n%s\n%s",
		len(r.times), r.rs.Entities, r.rs.Instances, r.errors, r.hs.Reloads, r.times.summary().table(), scriptTable(r.hs.Timing))
	if len(r.distinct) > 0 {
		fmt.Fprintf(stderr, "\n%s", errorTable(r.distinct, r.dropped))
	}
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
func (w *world) runWatch(ctx context.Context, c *runCommand, times *frameTimes, stderr io.Writer) error {
	f := &c.f
	var tl *timeline
	if f.rewind.frames > 0 {
		var err error
		if tl, err = newTimeline(w, &f.rewind, c.cfg.hostOptions(w.host.Dir()), c.gates, stderr, c.dbg); err != nil {
			return err
		}
	}
	var edits *sceneWatch
	if f.watch {
		stopWatch, err := w.host.Watch(ctx)
		if err != nil {
			return err
		}
		if tl != nil {
			tl.watch, tl.stopWatch = ctx, stopWatch
			defer func() {
				if tl.stopWatch != nil {
					_ = tl.stopWatch()
				}
			}()
		} else {
			defer stopWatch()
		}
		fmt.Fprintf(stderr, "watching %s for changes (Ctrl-C to stop)\n", w.host.Dir())
		if w.scene != nil {
			edits = newSceneWatch(w, stderr)
		}
	}
	var pending <-chan struct{}
	var insp *inspector
	// in answers the inspector's requests between frames: the page's, or,
	// with --rewind and an editor alone, the editor's rewinds.
	var in *inspect.Inspector
	switch {
	case f.inspect.addr == "" && tl != nil && f.debug.srv != nil:
		var err error
		if in, err = inspect.New(w.host, inspect.Options{Debugger: c.dbg, Timeline: tl}); err != nil {
			return err
		}
		defer in.Close()
		f.debug.srv.OnRewind(func(frame *uint64, back uint64) (uint64, error) { return in.Rewind(ctx, frame, back) })
		pending = in.Pending()
	case f.inspect.addr != "":
		opts := inspect.Options{Debugger: c.dbg}
		if tl != nil {
			opts.Timeline = tl
		}
		var err error
		if insp, err = w.serveInspector(ctx, &f.inspect, opts, stderr); err != nil {
			return err
		}
		in = insp.in
		if srv := f.debug.srv; srv != nil && tl != nil {
			srv.OnRewind(func(frame *uint64, back uint64) (uint64, error) { return in.Rewind(ctx, frame, back) })
		}
		defer insp.stop()
		pending = in.Pending()
	}
	tick := time.NewTicker(time.Duration(float64(time.Second) / f.fps))
	defer tick.Stop()
	for i := 0; !f.set["frames"] || i < f.frames; {
		select {
		case <-ctx.Done():
			return nil
		case <-pending:
			in.Drain()
			continue
		case <-tick.C:
		}
		if edits != nil {
			edits.poll(time.Now())
		}
		start := time.Now()
		_ = w.rt.Step(f.dt)
		d := time.Since(start)
		if in != nil {
			d = in.FrameTime()
		}
		*times = append(*times, d)
		i++
	}
	return nil
}
