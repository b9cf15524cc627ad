package zones

import (
	"fmt"
	"math"
	"slices"

	"github.com/luahost/luahost/runtime"
)

// Layout cuts a world into strips along one axis: Edges e0 <
// e1 < ... < e(n-1) make n+1 zones, zone 0 below e0 (x < e0), zone i from
// e(i-1) included to e(i) excluded, the last zone from e(n-1) on. A
// Layout without edges is one zone holding everything.
type Layout struct {
	// Axis is the axis the strips cut: 0 for x, 1 for y, 2 for z. The
	// default (zero) value is x.
	Axis int
	// Edges are the strips' borders, increasing strictly.
	Edges []float64
}

// axisNames are the names of the axes in scene files and messages.
var axisNames = [...]string{"x", "y", "z"}

// ParseAxis returns the axis called name: "x", "y" or "z".
func ParseAxis(name string) (int, error) {
	if i := slices.Index(axisNames[:], name); i >= 0 {
		return i, nil
	}
	return 0, fmt.Errorf("want \"x\", \"y\" or \"z\", got %q", name)
}

// AxisName returns "x", "y" or "z".
func AxisName(axis int) string { return axisNames[axis] }

// Check reports the first problem of l: an axis that is not 0, 1 or 2,
// an edge that is not a finite number, or an edge that is not above the
// one before it (overlapping or unsorted strips). The error names the
// edge by its index.
func (l Layout) Check() error {
	if l.Axis < 0 || l.Axis > 2 {
		return fmt.Errorf("axis %d: want 0 (x), 1 (y) or 2 (z)", l.Axis)
	}
	for i, e := range l.Edges {
		switch {
		case math.IsNaN(e) || math.IsInf(e, 0):
			return fmt.Errorf("edges[%d]: %v is not a finite number", i, e)
		case i > 0 && e <= l.Edges[i-1]:
			return fmt.Errorf("edges[%d]: %v is not above edges[%d], %v (edges must increase strictly: strips may not overlap)", i, e, i-1, l.Edges[i-1])
		}
	}
	return nil
}

// Zones returns the number of zones, len(Edges)+1.
func (l Layout) Zones() int { return len(l.Edges) + 1 }

// Zone returns the zone whose strip holds p. A NaN coordinate is in zone
// 0. O(log zones).
func (l Layout) Zone(p runtime.Vec3) int {
	v := p.X
	switch l.Axis {
	case 1:
		v = p.Y
	case 2:
		v = p.Z
	}
	// The number of edges at or below v is the zone.
	i, found := slices.BinarySearch(l.Edges, v)
	if found {
		i++
	}
	return i
}

// Split returns the layout of n equal strips along axis over [lo, hi],
// the bounding box of a world's starting positions: n-1 edges. When the
// box is flat (lo == hi) the strips are one unit wide, centred on it, so
// that n zones are still n distinct strips. n must be at least 1.
func Split(axis int, lo, hi float64, n int) Layout {
	if hi <= lo {
		lo, hi = lo-float64(n)/2, lo+float64(n)/2
	}
	edges := make([]float64, n-1)
	for i := range edges {
		edges[i] = lo + (hi-lo)*float64(i+1)/float64(n)
	}
	return Layout{Axis: axis, Edges: edges}
}
