package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"time"

	"github.com/luahost/luahost/internal/scene"
	"github.com/luahost/luahost/runtime"
	"github.com/luahost/luahost/zones"
	"github.com/luahost/luahost/zones/nats"
)

// cmdZone implements "luahost zone": one zone of a world shared with
// other processes over NATS, run in real time like --watch.
func cmdZone(args []string, stdout, stderr io.Writer) int {
	fs := newFlagSet("zone", "luahost zone SCENE --nats URL --world NAME --zone I [flags]", stderr)
	var (
		url, world, creds                 string
		zone, nzones, frames, cpt         int
		replicas                          int
		fps, dt                           float64
		seed                              int64
		budget, startTimeout, peerTimeout time.Duration
		ceiling                           int64
		lockstep, hash                    bool
	)
	fs.StringVar(&url, "nats", "", "the NATS server's URL, or a cluster's URLs separated by commas (required)")
	fs.IntVar(&replicas, "nats-replicas", 0, "how many servers of a NATS cluster keep the world's stream and buckets (default: the cluster's size, up to 3)")
	fs.StringVar(&world, "world", "", "the world's name, shared by its zones (required)")
	fs.StringVar(&creds, "nats-creds", "", "the zone's NATS identity: a user credentials file or an nkey seed (default: none, with a warning)")
	fs.IntVar(&zone, "zone", 0, "this process's zone, from 0 (required)")
	fs.IntVar(&nzones, "zones", 0, "the number of zones, when the scene has no zones field (equal strips along x)")
	fs.IntVar(&frames, "frames", 0, "number of frames this zone runs (default: until interrupted)")
	fs.Float64Var(&fps, "fps", 60, "frames per second")
	fs.Float64Var(&dt, "dt", 0, "fixed time step in seconds (default: 1/fps)")
	fs.IntVar(&cpt, "checkpoint", nats.DefaultCheckpoint, "frames between two checkpoints of the zone")
	fs.DurationVar(&startTimeout, "start-timeout", nats.DefaultStartTimeout, "how long a start may read the backlog of handoffs in NATS")
	fs.BoolVar(&lockstep, "lockstep", false, "step every zone of the world frame by frame in step, so that the world plays and prints what it does in one process")
	fs.DurationVar(&peerTimeout, "peer-timeout", nats.DefaultPeerTimeout, "with --lockstep: how long a frame waits for the other zones before the world stops")
	fs.BoolVar(&hash, "hash", false, "with --lockstep: print the world's SHA-256 to stderr after the last frame")
	fs.Int64Var(&seed, "seed", 0, "seed for the scripts' math.random (default: the scene's seed)")
	budgetVar(fs, &budget, budgetHelp)
	fs.Int64Var(&ceiling, "memory-ceiling", 0, "live heap in MiB near which the instance holding the most memory is faulted (0: the default; -1: off)")
	pos, err := parseFlags(fs, args, stdout)
	if err != nil {
		return usageStatus(err)
	}
	set := map[string]bool{}
	fs.Visit(func(f *flag.Flag) { set[f.Name] = true })
	bad := func(format string, a ...any) int {
		fmt.Fprintf(stderr, "luahost zone: %s\n", fmt.Sprintf(format, a...))
		fs.Usage()
		return exitUsage
	}
	switch {
	case len(pos) != 1:
		return bad("want exactly one SCENE, got %d arguments", len(pos))
	case url == "":
		return bad("--nats URL is required")
	case world == "":
		return bad("--world NAME is required")
	case !set["zone"]:
		return bad("--zone I is required")
	case frames < 0:
		return bad("--frames must not be negative")
	case clockError(fps, dt, ceiling) != "":
		return bad("%s", clockError(fps, dt, ceiling))
	case cpt <= 0:
		return bad("--checkpoint must be 1 or more")
	case startTimeout <= 0:
		return bad("--start-timeout must be positive")
	case replicas < 0 || replicas > 5:
		return bad("--nats-replicas must be 1 to 5")
	case set["zones"] && (nzones < 1 || nzones > maxZones):
		return bad("--zones must be 1 to %d", maxZones)
	case lockstep && (set["checkpoint"] || set["nats-replicas"]):
		return bad("--checkpoint and --nats-replicas do not apply with --lockstep: a world in lockstep keeps nothing in NATS")
	case !lockstep && (set["hash"] || set["peer-timeout"]):
		return bad("--hash and --peer-timeout need --lockstep: zones on their own clocks have no world-wide frame")
	case peerTimeout <= 0:
		return bad("--peer-timeout must be positive")
	}
	if !set["dt"] {
		dt = 1 / fps
	}
	fail := func(err error) int {
		fmt.Fprintf(stderr, "luahost zone: %v\n", err)
		return exitUsage
	}
	path := pos[0]
	data, err := scene.Read(path)
	if err != nil {
		return fail(err)
	}
	sc, err := scene.Parse(path, data)
	if err != nil {
		return fail(err)
	}
	if sc.Zones == nil && nzones == 0 {
		return fail(fmt.Errorf("%s: the scene has no zones field: give --zones N", path))
	}
	if sc.Zones != nil && nzones == 0 {
		nzones = len(sc.Zones.Edges) + 1
	}
	layout, err := sceneLayout(sc, nzones)
	if err != nil {
		return fail(fmt.Errorf("%s: %v", path, err))
	}
	if zone < 0 || zone >= layout.Zones() {
		return fail(fmt.Errorf("unknown --zone %d: the world has %d zones (0 to %d)", zone, layout.Zones(), layout.Zones()-1))
	}
	ctx, stop := notifyStop(stderr)
	defer stop()
	cfg := loadConfig{budget: cliBudget(budget), ceiling: cliCeiling(ceiling), stdout: stdout, stderr: stderr}
	if set["seed"] {
		cfg.seed = &seed
	}
	if lockstep {
		if creds == "" {
			fmt.Fprintf(stderr, "luahost zone: warning: no --nats-creds: any client of the NATS server can send this world's rounds\n")
		}
		lopts := nats.LinkOptions{URL: url, World: world, Zone: zone, Zones: layout.Zones(), Creds: creds, Log: stderr, Timeout: peerTimeout, StartTimeout: startTimeout}
		if err := runLockstep(ctx, path, layout, lopts, cfg, lockstepRun{frames: frames, fps: fps, dt: dt, hash: hash}); err != nil {
			return fail(err)
		}
		return exitOK
	}
	if creds == "" {
		fmt.Fprintf(stderr, "luahost zone: warning: no --nats-creds: any client of the NATS server can send this world's handoffs and records\n")
	}
	n, err := nats.Dial(nats.NetOptions{URL: url, World: world, Zone: zone, Layout: layout, Checkpoint: cpt, Log: stderr, StartTimeout: startTimeout, Creds: creds, Replicas: replicas})
	if err != nil {
		return fail(err)
	}
	snap, err := n.LastCheckpoint()
	if err != nil {
		_ = n.Close()
		return fail(err)
	}
	cfg.keep = func(e scene.Entity) bool { return snap == nil && layout.Zone(startOf(e)) == zone }
	cfg.join = n.Join
	w, err := loadScene(path, cfg)
	if err == nil && snap != nil {
		if err = w.host.Restore(snap); err != nil {
			_ = w.host.Close()
		}
	}
	if err == nil {
		err = n.Start(w.host)
	}
	if err != nil {
		_ = n.Close()
		return fail(err)
	}
	from := "the scene"
	if snap != nil {
		from = fmt.Sprintf("its checkpoint of frame %d", snap.Frame)
	}
	fmt.Fprintf(stderr, "zone %d of world %s: running %d entities from %s\n", zone, world, n.Entities(), from)
	loopErr := runZone(ctx, n, frames, fps, dt)
	if err := n.Close(); err != nil && loopErr == nil {
		loopErr = err
	}
	if loopErr != nil {
		return fail(loopErr)
	}
	return exitOK
}

// runZone steps the zone in real time at fps until frames ran (0: until
// ctx is done).
func runZone(ctx context.Context, n *nats.Net, frames int, fps, dt float64) error {
	tick := time.NewTicker(time.Duration(float64(time.Second) / fps))
	defer tick.Stop()
	for i := 0; frames == 0 || i < frames; i++ {
		select {
		case <-ctx.Done():
			return nil
		case <-tick.C:
		}
		if err := n.Step(dt); err != nil {
			if errors.Is(err, runtime.ErrClosed) {
				return nil
			}
			return err
		}
	}
	return nil
}

// lockstepRun is how a zone in lockstep runs: frames (0: until
// interrupted) at fps with steps of dt, and whether it prints the
// world's hash at the end.
type lockstepRun struct {
	frames  int
	fps, dt float64
	hash    bool
}

// runLockstep runs zone lopts.Zone of the scene at path over layout in
// lockstep with the world's other zones over NATS, in real time at
// run.fps (the world goes at its slowest zone's pace), until run.frames
// ran or ctx is done (either in any zone: the world ends after the same
// frame in every zone), and shuts it down with the others. stdout gets
// the whole world's output, as every zone's does.
func runLockstep(ctx context.Context, path string, layout zones.Layout, lopts nats.LinkOptions, cfg loadConfig, run lockstepRun) error {
	link, err := nats.DialLink(lopts)
	if err != nil {
		return err
	}
	defer link.Close()
	fmt.Fprintf(cfg.stderr, "zone %d of world %s: waiting for the world's %d zones\n", lopts.Zone, lopts.World, layout.Zones())
	l, err := zones.NewLockstep(zones.LockstepOptions{Layout: layout, Zone: lopts.Zone, Link: link, Stdout: cfg.stdout, Balance: balanceFrames, Hash: run.hash},
		zoneBuild(path, layout, cfg))
	if err != nil {
		return err
	}
	fmt.Fprintf(cfg.stderr, "zone %d of world %s: running %d entities in lockstep\n", lopts.Zone, lopts.World, l.Host().Runtime().Stats().Entities)
	tick := time.NewTicker(time.Duration(float64(time.Second) / run.fps))
	defer tick.Stop()
	var loopErr error
	for i := 1; ; i++ {
		select {
		case <-ctx.Done():
		case <-tick.C:
		}
		end, err := l.Step(run.dt, ctx.Err() != nil || i == run.frames)
		loopErr = errors.Join(loopErr, err)
		if end {
			break
		}
	}
	if run.hash && loopErr == nil {
		sum, err := l.Hash()
		if err != nil {
			loopErr = err
		} else {
			fmt.Fprintf(cfg.stderr, "world sha256 %x\n", sum)
		}
	}
	return errors.Join(loopErr, l.Close())
}

// startOf returns an entity's starting position (the origin when the
// scene gives none).
func startOf(e scene.Entity) runtime.Vec3 {
	if e.Position == nil {
		return runtime.Vec3{}
	}
	return runtime.Vec3{X: e.Position[0], Y: e.Position[1], Z: e.Position[2]}
}
