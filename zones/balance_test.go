package zones_test

import (
	"bytes"
	"fmt"
	"io"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/luahost/luahost/runtime"
	"github.com/luahost/luahost/zones"
	"github.com/luahost/luahost/zones/internal/zonetest"
)

// hotSpot returns n walkers crowded in [0, 10), right above the edge
// at 0, and spread ones walking over [-1000, 1000).
func hotSpot(n, spread int) []zonetest.Ent {
	var ents []zonetest.Ent
	for i := range n {
		ents = append(ents, zonetest.Ent{X: 10 * float64(i) / float64(n), Scripts: []string{"walker"},
			Props: map[string]any{"n": i, "lo": 0, "hi": 10, "speed": 5 + i%20, "dir": 1 - 2*(i%2)}})
	}
	for i := range spread {
		ents = append(ents, zonetest.Ent{X: -1000 + 2000*float64(i)/float64(spread), Scripts: []string{"walker"},
			Props: map[string]any{"n": n + i, "lo": -1000, "hi": 1000, "speed": 5 + i%20, "dir": 1 - 2*(i%2)}})
	}
	return ents
}

// balancedWorld builds ents on layout, its edges moving every balance
// frames (0: never).
func balancedWorld(t testing.TB, layout zones.Layout, balance int, ents []zonetest.Ent, out io.Writer) *zones.World {
	t.Helper()
	w, err := zones.New(zones.Options{Layout: layout, Stdout: out, Balance: balance}, zonetest.Build(t, "testdata/scripts", layout, ents, runtime.Discard))
	require.NoError(t, err)
	t.Cleanup(func() { _ = w.Close() })
	return w
}

// holds returns how many entities each zone holds.
func holds(w *zones.World) []int {
	var n []int
	for i := range w.Zones() {
		n = append(n, w.Host(i).Runtime().Stats().Entities)
	}
	return n
}

// TestBalanceHotSpot: a hot spot of 2,000 walkers above the edge at 0
// of 2 and 4 zones is shared out once the edges follow the work, each
// zone holding about its share; with fixed edges one zone holds it all.
func TestBalanceHotSpot(t *testing.T) {
	const n, spread = 2000, 100
	tests := []struct {
		zones   int
		balance int
	}{{2, 5}, {4, 5}, {2, 0}, {4, 0}}
	for _, tc := range tests {
		t.Run(fmt.Sprintf("%d zones, balance %d", tc.zones, tc.balance), func(t *testing.T) {
			w := balancedWorld(t, zones.Split(0, -1000, 1000, tc.zones), tc.balance, hotSpot(n, spread), io.Discard)
			run(t, w, 12)
			share := float64(n+spread) / float64(tc.zones)
			if tc.balance == 0 {
				assert.Zero(t, w.EdgeMoves())
				assert.Greater(t, float64(slices.Max(holds(w))), 0.9*float64(n))
				return
			}
			assert.Positive(t, w.EdgeMoves())
			for i, got := range holds(w) {
				assert.InDelta(t, share, got, 0.15*share, "zone %d holds %v of %v", i, holds(w), n+spread)
			}
		})
	}
}

// TestBalanceTransparent: the tower-defence scene plays byte for byte
// the same, with the same hash, when its edges move every frame on 2
// and 4 zones as on one zone.
func TestBalanceTransparent(t *testing.T) {
	want, wantSum, _ := playTD(t, 1, 200)
	for _, n := range []int{2, 4} {
		t.Run(fmt.Sprintf("%d zones", n), func(t *testing.T) {
			var out bytes.Buffer
			w, _ := tdWorld(t, n, 1, &out, nil)
			run(t, w, 200)
			assert.Greater(t, w.EdgeMoves(), uint64(10), "enemies walk across: the edges follow them")
			sum, err := w.Hash()
			require.NoError(t, err)
			require.NoError(t, w.Close())
			assert.Equal(t, want, out.String())
			assert.Equal(t, wantSum, sum)
		})
	}
}
