package zones_test

import (
	"bytes"
	"io"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/luahost/luahost/zones"
	"github.com/luahost/luahost/zones/internal/zonetest"
)

// newWorld builds a world over layout running the scripts of
// testdata/scripts: each zone spawns the entities whose x is in its strip.
// What scripts print goes to out; script errors to the returned log.
func newWorld(t testing.TB, layout zones.Layout, ents []zonetest.Ent, out io.Writer) (*zones.World, *zonetest.ErrorLog) {
	t.Helper()
	log := &zonetest.ErrorLog{}
	w, err := zones.New(zones.Options{Layout: layout, Stdout: out}, zonetest.Build(t, "testdata/scripts", layout, ents, log.Add))
	require.NoError(t, err)
	t.Cleanup(func() { _ = w.Close() })
	return w, log
}

// run steps w frames times.
func run(t testing.TB, w *zones.World, frames int) {
	t.Helper()
	for range frames {
		require.NoError(t, w.Step(1.0/60))
	}
}

// output runs a world and returns what it printed.
func output(t testing.TB, layout zones.Layout, ents []zonetest.Ent, frames int) (string, []string) {
	t.Helper()
	var out bytes.Buffer
	w, log := newWorld(t, layout, ents, &out)
	run(t, w, frames)
	require.NoError(t, w.Close())
	return out.String(), log.All()
}
