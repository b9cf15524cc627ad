package zones_test

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/luahost/luahost/luabind"
	"github.com/luahost/luahost/zones"
	"github.com/luahost/luahost/zones/internal/zonetest"
)

// TestHandoffExactlyOnce runs two zones on two goroutines and walks 1,000
// entities back and forth across the edge between them: after every
// frame all 1,000 are in exactly one zone, and at the end each one was
// updated in every frame exactly once, whichever zone it was in.
func TestHandoffExactlyOnce(t *testing.T) {
	const n, frames = 1000, 120
	var out bytes.Buffer
	w, log := newWorld(t, zones.Layout{Edges: []float64{0}}, zonetest.Walkers(n), &out)
	for f := 1; f <= frames; f++ {
		require.NoError(t, w.Step(1.0/60))
		total := 0
		for i := range w.Zones() {
			total += w.Host(i).Runtime().Stats().Entities
		}
		require.Equal(t, n, total, "entities after frame %d", f)
	}
	assert.Greater(t, w.Handoffs(), uint64(2*n), "the walkers crossed the edge many times")
	require.NoError(t, w.Close())
	assert.Empty(t, log.All())
	seen := make(map[int]bool)
	for l := range strings.SplitSeq(strings.TrimSpace(out.String()), "\n") {
		var i, updates, bad int
		_, err := fmt.Sscanf(l, "walker %d updates %d bad %d", &i, &updates, &bad)
		require.NoError(t, err, l)
		assert.False(t, seen[i], "walker %d is in two zones", i)
		seen[i] = true
		assert.Equal(t, frames, updates, "walker %d's updates", i)
		assert.Zero(t, bad, "walker %d skipped or repeated a frame", i)
	}
	assert.Len(t, seen, n, "every walker reached the end")
}

// TestEntityValueAcrossZones: an entity value kept in zone 0 of an
// entity that walks into zone 1 goes on naming it: alive() true, zone()
// 1 and its committed position at the start of each frame; once the
// entity dies over there, the value is stale.
func TestEntityValueAcrossZones(t *testing.T) {
	out, errs := output(t, zones.Layout{Edges: []float64{0}}, []zonetest.Ent{
		{Name: "m", X: -2.5, Scripts: []string{"mover"}},
		{X: -5, Scripts: []string{"watcher"}, Props: map[string]any{"target": "m"}},
	}, 7)
	assert.Empty(t, errs)
	stale := fmt.Sprintf("testdata/scripts/watcher.lua:8: stale entity handle entity(#%x)", luabind.ChildIdentity(0, 1))
	assert.Equal(t, "frame\t1\ttrue\t0\ttrue\t-2.5\t0\t0\n"+
		"frame\t2\ttrue\t0\ttrue\t-1.5\t0\t0\n"+
		"frame\t3\ttrue\t0\ttrue\t-0.5\t0\t0\n"+
		"frame\t4\ttrue\t1\ttrue\t0.5\t0\t0\n"+
		"frame\t5\ttrue\t1\ttrue\t1.5\t0\t0\n"+
		"frame\t6\ttrue\t1\ttrue\t2.5\t0\t0\n"+
		"frame\t7\tfalse\tnil\tfalse\t"+stale+"\n", out)
}
