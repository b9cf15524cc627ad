package zones_test

import (
	"math"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/luahost/luahost/runtime"
	"github.com/luahost/luahost/zones"
)

func TestLayoutZone(t *testing.T) {
	three := zones.Layout{Edges: []float64{0, 100}}
	tests := []struct {
		name   string
		layout zones.Layout
		p      runtime.Vec3
		want   int
	}{
		{"below the first edge", three, runtime.Vec3{X: -0.5}, 0},
		{"on the first edge", three, runtime.Vec3{X: 0}, 1},
		{"inside the middle", three, runtime.Vec3{X: 99.9}, 1},
		{"on the last edge", three, runtime.Vec3{X: 100}, 2},
		{"far above", three, runtime.Vec3{X: 1e300}, 2},
		{"other axes do not count", three, runtime.Vec3{Y: 500, Z: -500}, 1},
		{"along z", zones.Layout{Axis: 2, Edges: []float64{10}}, runtime.Vec3{X: 50, Z: 10}, 1},
		{"no edges", zones.Layout{}, runtime.Vec3{X: -1e9}, 0},
		{"NaN", three, runtime.Vec3{X: math.NaN()}, 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.want, tc.layout.Zone(tc.p))
		})
	}
}

func TestLayoutCheck(t *testing.T) {
	tests := []struct {
		name   string
		layout zones.Layout
		want   string
	}{
		{"fine", zones.Layout{Axis: 1, Edges: []float64{-1, 0, 1}}, ""},
		{"unsorted", zones.Layout{Edges: []float64{0, 100, 50}}, "edges[2]: 50 is not above edges[1], 100 (edges must increase strictly: strips may not overlap)"},
		{"equal", zones.Layout{Edges: []float64{3, 3}}, "edges[1]: 3 is not above edges[0], 3 (edges must increase strictly: strips may not overlap)"},
		{"infinite", zones.Layout{Edges: []float64{math.Inf(1)}}, "edges[0]: +Inf is not a finite number"},
		{"bad axis", zones.Layout{Axis: 3}, "axis 3: want 0 (x), 1 (y) or 2 (z)"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			err := tc.layout.Check()
			if tc.want == "" {
				assert.NoError(t, err)
				return
			}
			assert.EqualError(t, err, tc.want)
		})
	}
}

func TestSplit(t *testing.T) {
	assert.Equal(t, []float64{25, 50, 75}, zones.Split(0, 0, 100, 4).Edges)
	assert.Equal(t, []float64{}, zones.Split(1, 0, 100, 1).Edges)
	assert.Equal(t, []float64{6, 7, 8}, zones.Split(0, 7, 7, 4).Edges, "a flat box gets unit strips around it")
}
