package luabind

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/luahost/luahost/runtime"
)

// TestViewQuery: a view answers queries as a runtime does, with
// identities in place of entity indexes: by distance then identity
// with near, else by identity.
func TestViewQuery(t *testing.T) {
	at := func(x, z float64) runtime.Transform {
		return runtime.Transform{Position: runtime.Vec3{X: x, Z: z}, Scale: runtime.Vec3{X: 1, Y: 1, Z: 1}}
	}
	v := NewView([]ViewEntity{
		{ID: 9, Zone: 1, Name: "far", Tags: []string{"enemy"}, Scripts: []string{"e"}, Transform: at(100, 0)},
		{ID: 3, Name: "a", Tags: []string{"enemy", "weak"}, Scripts: []string{"e"}, Transform: at(5, 0)},
		{ID: 7, Name: "a", Tags: []string{"tower"}, Scripts: []string{"t", "t"}, Transform: at(-5, 0)},
		{ID: 5, Zone: 2, Tags: []string{"enemy"}, Scripts: []string{"e"}, Transform: at(0, 20)},
	})
	origin := &runtime.Vec3{}
	cases := []struct {
		name       string
		q          runtime.Query
		want       []uint64
		considered int
	}{
		{"everything, by identity", runtime.Query{}, []uint64{3, 5, 7, 9}, 4},
		{"a tag", runtime.Query{Tag: "enemy"}, []uint64{3, 5, 9}, 3},
		{"a name", runtime.Query{Name: "a"}, []uint64{3, 7}, 2},
		{"a script, once per entity", runtime.Query{Script: "t"}, []uint64{7}, 1},
		{"near: ties by identity", runtime.Query{Near: origin}, []uint64{3, 7, 5, 9}, 4},
		{"within a radius, across grid cells", runtime.Query{Near: origin, Radius: 21}, []uint64{3, 7, 5}, 3},
		{"a radius and a tag", runtime.Query{Near: origin, Radius: 21, Tag: "enemy"}, []uint64{3, 5}, 3},
		{"a limit", runtime.Query{Tag: "enemy", Near: &runtime.Vec3{X: 100}, Limit: 2}, []uint64{9, 3}, 3},
		{"nothing", runtime.Query{Tag: "boss"}, []uint64{}, 0},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			assert.Equal(t, c.want, v.Query(c.q))
			_, considered := v.query(c.q)
			assert.Equal(t, c.considered, considered, "the work charged for it")
		})
	}
	assert.Equal(t, 2, v.Get(5).Zone)
	assert.Nil(t, v.Get(4))
	assert.Equal(t, 4, v.Len())
	var none *View
	assert.Nil(t, none.Get(3))
	assert.Empty(t, none.Query(runtime.Query{}))
}
