package zones_test

import (
	"bytes"
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/luahost/luahost/luabind"
	"github.com/luahost/luahost/zones"
	"github.com/luahost/luahost/zones/internal/zonetest"
)

// playTD plays the tower-defence scene on n equal zones over its
// entities' starting box, as luahost run --zones n does, for frames
// frames, and returns what it printed, its hash and its handoffs.
func playTD(t *testing.T, n, frames int) (string, [32]byte, uint64) {
	t.Helper()
	var out bytes.Buffer
	w, log := tdWorld(t, n, 0, &out, nil)
	run(t, w, frames)
	sum, err := w.Hash()
	require.NoError(t, err)
	handoffs := w.Handoffs()
	require.NoError(t, w.Close())
	assert.Empty(t, log.All())
	return out.String(), sum, handoffs
}

// TestTransparentTowerDefence: a tower-defence scene whose towers query
// enemies across edges and send them damage drawn from math.random,
// kill weak ones across edges and tell the base and the spawner, whose
// enemies spawn with entity values in their props and walk across every
// edge, prints byte for byte the same and ends with the same hash on 1,
// 2, 4 and 8 zones.
func TestTransparentTowerDefence(t *testing.T) {
	const frames = 200
	want, wantSum, none := playTD(t, 1, frames)
	require.Zero(t, none)
	for _, check := range []string{"hit by\tt3", "kills\tenemy", "leak of", "hears", "final score"} {
		require.Contains(t, want, check, "the game plays out")
	}
	for _, n := range []int{2, 4, 8} {
		t.Run(fmt.Sprintf("%d zones", n), func(t *testing.T) {
			got, sum, handoffs := playTD(t, n, frames)
			assert.Positive(t, handoffs, "enemies cross edges")
			assert.Equal(t, want, got)
			assert.Equal(t, wantSum, sum)
		})
	}
}

// TestChunkLinesOnce: a script's chunk runs in every zone, but its lines
// are written once, before the entities' lines of the frame, which come
// in the order of the entities' identities on any number of zones.
func TestChunkLinesOnce(t *testing.T) {
	ents := []zonetest.Ent{
		{X: 5, Scripts: []string{"chunky"}, Props: map[string]any{"n": 1}},
		{X: -5, Scripts: []string{"chunky"}, Props: map[string]any{"n": 2}},
		{X: -6, Scripts: []string{"chunky"}, Props: map[string]any{"n": 3}},
	}
	// The identities of the scene's entities sort 3, 1, 2: neither the
	// order of one zone's updates nor zone after zone.
	require.Less(t, luabind.ChildIdentity(0, 3), luabind.ChildIdentity(0, 1))
	require.Less(t, luabind.ChildIdentity(0, 1), luabind.ChildIdentity(0, 2))
	want := "chunk of chunky\nupdate\t3\t1\nupdate\t1\t1\nupdate\t2\t1\n"
	for _, layout := range []zones.Layout{{}, {Edges: []float64{0}}, {Edges: []float64{-1, 0, 1}}} {
		t.Run(fmt.Sprintf("%d zones", layout.Zones()), func(t *testing.T) {
			out, errs := output(t, layout, ents, 1)
			assert.Empty(t, errs)
			assert.Equal(t, want, out)
		})
	}
}
