package zones

import (
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/luahost/luahost/luabind"
	"github.com/luahost/luahost/runtime"
	"github.com/luahost/luahost/snapshot"
)

// TestViewWire: a zone's view part reads back as it was written, bits of
// its numbers included (NaN, infinities, -0), with the parcels it could
// not take; a part cut short or with bytes past its end is an error.
func TestViewWire(t *testing.T) {
	seen := []luabind.ViewEntity{
		{ID: 1 << 62, Name: "tower", Tags: []string{"a", "b"}, Scripts: []string{"td/tower"},
			Transform: runtime.Transform{Position: runtime.Vec3{X: math.Inf(1), Y: math.Copysign(0, -1), Z: math.NaN()}, Rotation: runtime.Vec3{Y: 90}, Scale: runtime.Vec3{X: 1, Y: 1, Z: 1}}},
		{ID: 7, Scripts: []string{"td/tower", "walker"}},
		{ID: 8, Name: "tower"},
	}
	bounced := []wireParcel{{From: 1, To: 0, Batch: []snapshot.Entity{{ID: "1:1"}}, Err: "no script"}}
	for _, tc := range []struct {
		name    string
		bounced []wireParcel
	}{{"with parcels back", bounced}, {"without", nil}} {
		t.Run(tc.name, func(t *testing.T) {
			data, err := appendView(nil, seen, tc.bounced)
			require.NoError(t, err)
			var r viewReader
			got, back, err := r.readView(nil, data, 3)
			require.NoError(t, err)
			require.Len(t, got, len(seen))
			for i := range seen {
				want := seen[i]
				want.Zone = 3
				assert.Equal(t, want.ID, got[i].ID)
				assert.Equal(t, want.Name, got[i].Name)
				assert.Equal(t, want.Tags, got[i].Tags)
				assert.Equal(t, want.Scripts, got[i].Scripts)
				assert.Equal(t, 3, got[i].Zone)
				for j, v := range []runtime.Vec3{want.Transform.Position, want.Transform.Rotation, want.Transform.Scale} {
					g := []runtime.Vec3{got[i].Transform.Position, got[i].Transform.Rotation, got[i].Transform.Scale}[j]
					for k, x := range []float64{v.X, v.Y, v.Z} {
						assert.Equal(t, math.Float64bits(x), math.Float64bits([]float64{g.X, g.Y, g.Z}[k]), "entity %d, vector %d, axis %d", i, j, k)
					}
				}
			}
			assert.Equal(t, tc.bounced, back)
			for _, cut := range []int{1, len(data) / 2, len(data) - 1} {
				_, _, err := r.readView(nil, data[:cut], 0)
				assert.Error(t, err, "cut at %d", cut)
			}
			_, _, err = r.readView(nil, append(data, 0), 0)
			assert.EqualError(t, err, "a view part goes on past its entities")
		})
	}
}
