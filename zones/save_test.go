package zones_test

import (
	"bytes"
	"fmt"
	"io"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/luahost/luahost/snapshot"
	"github.com/luahost/luahost/zones"
	"github.com/luahost/luahost/zones/internal/zonetest"
)

// tdWorld builds the tower-defence scene on n equal zones over its
// entities' starting box, printing to out, its edges moved every balance
// frames (0: never), or, with saved, continues the zoned world saved on
// n zones of the layout saved gives for n.
func tdWorld(t *testing.T, n, balance int, out io.Writer, saved *snapshot.World) (*zones.World, *zonetest.ErrorLog) {
	t.Helper()
	layout, build, log := zonetest.TDBuild(t, "testdata", n, saved)
	opts := zones.Options{Layout: layout, Stdout: out, Balance: balance}
	if saved != nil {
		var err error
		opts.Effects, err = zones.Effects(saved)
		require.NoError(t, err)
	}
	w, err := zones.New(opts, build)
	require.NoError(t, err)
	t.Cleanup(func() { _ = w.Close() })
	return w, log
}

// TestSaveContinue: the tower-defence scene played 200 frames on one
// zone cannot be told from 100 frames on n zones, saved, the snapshot's
// JSON read back and continued for 100 frames on m zones: the same
// lines, the same hash, the same snapshot at the end. Without the
// effects the snapshot carries, the continued game differs.
func TestSaveContinue(t *testing.T) {
	var full bytes.Buffer
	w, _ := tdWorld(t, 1, 0, &full, nil)
	run(t, w, 200)
	wantSum, err := w.Hash()
	require.NoError(t, err)
	wantSave, err := w.Save()
	require.NoError(t, err)
	want, err := wantSave.Marshal()
	require.NoError(t, err)
	require.NoError(t, w.Close())

	tests := []struct {
		saveOn, continueOn int
		dropEffects        bool
	}{
		{1, 1, false}, {2, 2, false}, {2, 4, false}, {4, 1, false}, {1, 8, false}, {2, 3, true},
	}
	for _, tc := range tests {
		t.Run(fmt.Sprintf("%d then %d zones, effects dropped %v", tc.saveOn, tc.continueOn, tc.dropEffects), func(t *testing.T) {
			var out bytes.Buffer
			first, log := tdWorld(t, tc.saveOn, 0, &out, nil)
			run(t, first, 100)
			before := out.String()
			saved, err := first.Save()
			require.NoError(t, err)
			require.NotEmpty(t, saved.Zoned.Effects, "towers send damage every frame")
			data, err := saved.Marshal()
			require.NoError(t, err)
			require.NoError(t, first.Close())
			assert.Empty(t, log.All())

			back, err := snapshot.Parse(data)
			require.NoError(t, err)
			if tc.dropEffects {
				back.Zoned.Effects = nil
			}
			var rest bytes.Buffer
			second, log := tdWorld(t, tc.continueOn, 0, &rest, back)
			run(t, second, 100)
			sum, err := second.Hash()
			require.NoError(t, err)
			end, err := second.Save()
			require.NoError(t, err)
			// The same world, on another layout.
			end.Zoned.Edges = wantSave.Zoned.Edges
			got, err := end.Marshal()
			require.NoError(t, err)
			require.NoError(t, second.Close())
			assert.Empty(t, log.All())
			if tc.dropEffects {
				assert.NotEqual(t, wantSum, sum)
				return
			}
			assert.Equal(t, full.String(), before+rest.String(), "frames 1 to 100, then 101 to 200 and the shutdown")
			assert.Equal(t, wantSum, sum)
			assert.Equal(t, string(want), string(got))
		})
	}
}
