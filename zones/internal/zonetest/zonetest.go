// Package zonetest builds the starting entities of the zones' tests, for
// the tests of zones and of zones/nats alike.
package zonetest

import (
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/luahost/luahost/luabind"
	"github.com/luahost/luahost/runtime"
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
