package main

import (
	"errors"
	"fmt"
	"io"
	"maps"
	"path/filepath"
	"slices"
	"time"

	"github.com/luahost/luahost/internal/scene"
	"github.com/luahost/luahost/luabind"
	"github.com/luahost/luahost/runtime"
)

// world is a loaded scene: its runtime and Lua host, all entities active.
type world struct {
	rt   *runtime.Runtime
	host *luabind.Host
	// errs writes the script errors to stderr and keeps the distinct
	// ones, for --stats.
	errs *luabind.ErrorLog
	// scene is the scene as loaded, from the file at path with text
	// data, and handles its entities, in file order (zero for one not
	// spawned): what --watch compares a saved scene with.
	path    string
	data    []byte
	scene   *scene.Scene
	handles []runtime.Handle
}

// loadConfig is what loading a scene takes from the command line.
type loadConfig struct {
	seed    *int64
	budget  time.Duration
	ceiling int64
	stdout  io.Writer
	stderr  io.Writer
	// log receives ctx.log lines; nil means stderr.
	log io.Writer
	// keep, when set, says which of the scene's entities to spawn, and
	// join receives the host before any entity exists (zones.go).
	keep func(scene.Entity) bool
	join func(*luabind.Host)
	// tune, when set, adjusts the host's options (--profile).
	tune func(*luabind.Options)
	// attach, when set, receives the host before any script loads
	// (--debug).
	attach func(*luabind.Host) error
	// lenient makes a script that does not load wait for a fix instead
	// of stopping the start (--watch, --inspect).
	lenient bool
}

// hostOptions returns the options of a host on dir with cfg's settings.
func (cfg loadConfig) hostOptions(dir string) luabind.Options {
	log := cfg.log
	if log == nil {
		log = cfg.stderr
	}
	o := luabind.Options{Dir: dir, Budget: cfg.budget, MemoryCeiling: cfg.ceiling, Stdout: cfg.stdout, Log: log, Lenient: cfg.lenient}
	if cfg.tune != nil {
		cfg.tune(&o)
	}
	return o
}

// loadScene reads and starts a scene: every script is loaded (compiled, its
// chunk run) before any entity exists, so a broken script stops the start
// with nothing run (with cfg.lenient it is reported and its instances wait
// for a fix); then the blackboard is filled, entities spawned and scripts
// attached in file order, and every entity activated.
func loadScene(path string, cfg loadConfig) (*world, error) {
	data, err := scene.Read(path)
	if err != nil {
		return nil, err
	}
	sc, err := scene.Parse(path, data)
	if err != nil {
		return nil, err
	}
	dir := "scripts"
	if sc.Scripts != nil {
		dir = *sc.Scripts
	}
	if !filepath.IsAbs(dir) {
		dir = filepath.Join(filepath.Dir(path), dir)
	}
	var seed int64
	if sc.Seed != nil {
		seed = *sc.Seed
	}
	if cfg.seed != nil {
		seed = *cfg.seed
	}
	rt := runtime.New(runtime.Options{Seed: seed, OnError: runtime.Discard})
	errs := luabind.NewErrorLog(rt, cfg.stderr)
	host, err := luabind.New(rt, cfg.hostOptions(dir))
	if err != nil {
		return nil, fmt.Errorf("%s: %v", path, err)
	}
	if cfg.join != nil {
		cfg.join(host)
	}
	fail := func(err error) (*world, error) {
		_ = host.Close()
		return nil, err
	}
	if cfg.attach != nil {
		if err := cfg.attach(host); err != nil {
			return fail(err)
		}
	}
	for i, e := range sc.Entities {
		for _, s := range e.Scripts {
			if _, err := host.Load(s.Script); err != nil && !(cfg.lenient && isLoadError(err)) {
				return fail(fmt.Errorf("%s: entity %s: %v", path, scene.EntityLabel(i, e), err))
			}
		}
		for _, s := range e.Scripts {
			if len(s.Props) == 0 {
				// An empty map is plain data: no copy needed to tell.
				continue
			}
			if _, err := runtime.Plain(s.Props); err != nil {
				return fail(fmt.Errorf("%s: entity %s: script %s: props: %v", path, scene.EntityLabel(i, e), s.Script, err))
			}
		}
	}
	for _, k := range slices.Sorted(maps.Keys(sc.Blackboard)) {
		if err := rt.Blackboard().Set(k, sc.Blackboard[k]); err != nil {
			return fail(fmt.Errorf("%s: %v", path, err))
		}
	}
	named := 0
	for _, e := range sc.Entities {
		if e.Name != "" {
			named++
		}
	}
	rt.Reserve(len(sc.Entities), named)
	spawned := make([]runtime.Handle, 0, len(sc.Entities))
	handles := make([]runtime.Handle, len(sc.Entities))
	for i, e := range sc.Entities {
		if cfg.keep != nil && !cfg.keep(e) {
			continue
		}
		h := rt.SpawnAt(placement(e))
		// Under zoned rules, the identity of the scene's i-th entity is
		// the same on every zone (a no-op otherwise).
		_ = host.SetIdentity(h, luabind.ChildIdentity(0, uint64(i+1)))
		spawned = append(spawned, h)
		handles[i] = h
		if e.Name != "" {
			_ = rt.SetName(h, e.Name)
		}
		for _, tag := range e.Tags {
			if err := rt.Tag(h, tag); err != nil {
				return fail(fmt.Errorf("%s: entity %s: tags: %v", path, scene.EntityLabel(i, e), err))
			}
		}
		for _, s := range e.Scripts {
			// What the scripts attached so far did during setup is world
			// behaviour, not a scene error: an onCreate that
			// killed its own entity leaves the rest of its scripts
			// unattached, and the start goes on.
			if st, err := rt.State(h); err != nil || st != runtime.StatePending {
				break
			}
			// The entity is Pending and every script is loaded (or,
			// lenient, waits for a fix), so attach cannot fail here.
			if _, err := host.Attach(h, s.Script, s.Props); err != nil && !errors.Is(err, luabind.ErrWaiting) {
				return fail(fmt.Errorf("%s: %v", path, err))
			}
		}
	}
	for _, h := range spawned {
		if st, err := rt.State(h); err == nil && st == runtime.StatePending {
			_ = rt.Activate(h)
		}
	}
	return &world{rt: rt, host: host, errs: errs, path: path, data: data, scene: sc, handles: handles}, nil
}

// isLoadError reports whether err is a script that does not load (as
// opposed to a name that cannot be one).
func isLoadError(err error) bool {
	var le *luabind.LoadError
	return errors.As(err, &le) && le.File != ""
}

// placement returns the transform an entity's scene entry names: the
// identity, with the parts the entry gives.
func placement(e scene.Entity) runtime.Transform {
	t := runtime.Identity()
	for _, p := range [...]struct {
		part  *runtime.Vec3
		given *[3]float64
	}{{&t.Position, e.Position}, {&t.Rotation, e.Rotation}, {&t.Scale, e.Scale}} {
		if v := p.given; v != nil {
			*p.part = runtime.Vec3{X: v[0], Y: v[1], Z: v[2]}
		}
	}
	return t
}
