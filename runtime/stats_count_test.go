package runtime

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestSpawnKillCounts: Stats counts every spawn, and every kill that
// took (a second kill of a dying entity does not count).
func TestSpawnKillCounts(t *testing.T) {
	rt := New(Options{})
	var hs []Handle
	for range 5 {
		hs = append(hs, rt.Spawn())
	}
	for _, h := range hs[:3] {
		require.NoError(t, rt.Activate(h))
	}
	require.NoError(t, rt.Step(1))
	for _, h := range hs[:2] {
		ok, err := rt.Kill(h)
		require.NoError(t, err)
		assert.True(t, ok)
	}
	ok, err := rt.Kill(hs[3])
	require.NoError(t, err)
	assert.True(t, ok, "a pending entity is cancelled")
	_, err = rt.Kill(hs[0])
	assert.Error(t, err, "a reaped entity's handle is stale")
	s := rt.Stats()
	assert.Equal(t, uint64(5), s.Spawns)
	assert.Equal(t, uint64(3), s.Kills)
	assert.Equal(t, 2, s.Entities)
}
