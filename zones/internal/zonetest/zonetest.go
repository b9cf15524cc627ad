// Package zonetest builds the starting entities of the zones' tests, for
// the tests of zones and of zones/nats alike.
package zonetest

import (
	"io"
	"math"
	"os"
	"path/filepath"
	"sync"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/luahost/luahost/internal/scene"
	"github.com/luahost/luahost/luabind"
	"github.com/luahost/luahost/runtime"
	"github.com/luahost/luahost/snapshot"
	"github.com/luahost/luahost/zones"
)

// Ent is one starting entity of a test world.
type Ent struct {
	Name    string
	X, Y, Z float64
	Scripts []string
	Props   map[string]any
}

// Walkers returns n walkers spread over [-10, 10), with speeds and
// directions that differ, so that they cross the edge at 0 at all sorts
// of frames.
func Walkers(n int) []Ent {
	ents := make([]Ent, n)
	for i := range ents {
		dir := 1
		if i%2 == 1 {
			dir = -1
		}
		ents[i] = Ent{X: -10 + 20*float64(i)/float64(n), Scripts: []string{"walker"},
			Props: map[string]any{"n": i, "speed": 30 + i%61, "dir": dir}}
	}
	return ents
}

// Place spawns, activated and with their scripts, the entities of ents
// whose position is in zone i's strip of layout.
func Place(t testing.TB, rt *runtime.Runtime, h *luabind.Host, layout zones.Layout, i int, ents []Ent) {
	t.Helper()
	for n, e := range ents {
		p := runtime.Vec3{X: e.X, Y: e.Y, Z: e.Z}
		if layout.Zone(p) != i {
			continue
		}
		at := runtime.Identity()
		at.Position = p
		hd := rt.SpawnAt(at)
		require.NoError(t, h.SetIdentity(hd, luabind.ChildIdentity(0, uint64(n+1))))
		if e.Name != "" {
			require.NoError(t, rt.SetName(hd, e.Name))
		}
		for _, s := range e.Scripts {
			_, err := h.Attach(hd, s, e.Props)
			require.NoError(t, err)
		}
		require.NoError(t, rt.Activate(hd))
	}
}

// Build returns the build of a world of ents over layout, its scripts in
// dir, its script errors given to onError: each zone spawns the entities
// in its strip (Place). Budgets are off: the tests run under the race
// detector on a busy machine, and the budget is not their subject.
func Build(t testing.TB, dir string, layout zones.Layout, ents []Ent, onError func(error)) zones.Build {
	return func(i int, out io.Writer, join func(*luabind.Host)) error {
		rt := runtime.New(runtime.Options{OnError: onError})
		h, err := luabind.New(rt, luabind.Options{Dir: dir, Stdout: out, Log: io.Discard, Budget: -1})
		if err != nil {
			return err
		}
		join(h)
		Place(t, rt, h, layout, i, ents)
		return nil
	}
}

// ErrorLog collects the script errors of every zone; it is safe for
// concurrent use.
type ErrorLog struct {
	mu   sync.Mutex
	errs []string
}

// Add adds err.
func (l *ErrorLog) Add(err error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	l.errs = append(l.errs, err.Error())
}

// All returns the errors added so far.
func (l *ErrorLog) All() []string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return append([]string(nil), l.errs...)
}

// TDScene reads the tower-defence scene td.json of the folder dir (the
// zones' testdata): its seed, its blackboard and its entities.
func TDScene(t testing.TB, dir string) (int64, map[string]any, []Ent) {
	t.Helper()
	path := filepath.Join(dir, "td.json")
	data, err := os.ReadFile(path)
	require.NoError(t, err)
	sc, err := scene.Parse(path, data)
	require.NoError(t, err)
	require.NotNil(t, sc.Seed)
	var ents []Ent
	for _, e := range sc.Entities {
		require.NotNil(t, e.Position)
		require.Len(t, e.Scripts, 1)
		ents = append(ents, Ent{Name: e.Name, X: e.Position[0], Y: e.Position[1], Z: e.Position[2],
			Scripts: []string{e.Scripts[0].Script}, Props: e.Scripts[0].Props})
	}
	return *sc.Seed, sc.Blackboard, ents
}

// TDBuild returns the layout of the tower-defence scene of the folder dir
// (TDScene; its scripts in dir/scripts) on n equal zones over its
// entities' starting box (with saved: the layout saved gives for n),
// and the build of its zones: each spawns the scene's entities in its
// strip (with saved: restores its part of it). Script errors go to the
// returned log.
func TDBuild(t testing.TB, dir string, n int, saved *snapshot.World) (zones.Layout, zones.Build, *ErrorLog) {
	t.Helper()
	seed, board, ents := TDScene(t, dir)
	lo, hi := math.Inf(1), math.Inf(-1)
	for _, e := range ents {
		lo, hi = min(lo, e.X), max(hi, e.X)
	}
	layout := zones.Split(0, lo, hi, n)
	if saved != nil {
		var err error
		layout, err = zones.SavedLayout(saved, n)
		require.NoError(t, err)
	}
	log := &ErrorLog{}
	return layout, func(i int, zout io.Writer, join func(*luabind.Host)) error {
		rt := runtime.New(runtime.Options{Seed: seed, OnError: log.Add})
		h, err := luabind.New(rt, luabind.Options{Dir: filepath.Join(dir, "scripts"), Stdout: zout, Log: io.Discard, Budget: -1})
		if err != nil {
			return err
		}
		join(h)
		if saved != nil {
			return h.Restore(zones.Part(saved, layout, i))
		}
		for k, v := range board {
			if err := rt.Blackboard().Set(k, v); err != nil {
				return err
			}
		}
		Place(t, rt, h, layout, i, ents)
		return nil
	}, log
}
