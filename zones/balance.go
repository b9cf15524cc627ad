package zones

import (
	"cmp"
	"math"
	"slices"

	"github.com/luahost/luahost/luabind"
)

// Load-following edges. Every Options.Balance frames, between frames,
// the World counts the work of every zone from the committed view: an
// entity weighs one, plus one for each of its script instances (what a
// frame spends on it is mostly its callbacks). When the heaviest zone
// holds more than balanceSlack above the mean, the edges move to the
// weighted quantiles of the entities' positions along the layout's axis,
// so that each zone holds an equal share; the entities beyond their
// zone's new strip are handed off after the next frame. The count, and
// so the edges, depend on the world's state alone: the same on every
// run and whatever the number of zones before. Under the zoned rules
// which zone holds an entity never shows, so moving edges changes no
// output and no hash.

// balanceSlack is how far above the mean work the heaviest zone may be
// before the edges move: moving them costs handoffs.
const balanceSlack = 0.1

// workKey is one entity's place along the axis and its work.
type workKey struct {
	at   float64
	work float64
}

// balancer moves a world's edges toward equal work per zone, every
// every frames (see the top of this file); since counts the frames since
// the edges were last considered, keys is its buffer and moves counts
// the times the edges moved.
type balancer struct {
	every, since int
	keys         []workKey
	moves        uint64
}

// newBalancer returns a balancer that considers the edges every every
// frames, the first time at the first call of balance; every <= 0 never.
func newBalancer(every int) balancer { return balancer{every: every, since: every - 1} }

// balance moves layout's edges toward equal work per zone, counted from
// view, every b.every frames (see the top of this file). O(entities ×
// log(entities)) on the frames it moves them, O(1) on the others.
func (b *balancer) balance(layout *Layout, view *luabind.View) {
	zones := layout.Zones()
	if b.every <= 0 || zones == 1 {
		return
	}
	b.since++
	if b.since < b.every {
		return
	}
	b.since = 0
	keys := b.keys[:0]
	var total float64
	load := make([]float64, zones)
	for _, e := range view.Entities() {
		p := e.Transform.Position
		at := [3]float64{p.X, p.Y, p.Z}[layout.Axis]
		if math.IsNaN(at) || math.IsInf(at, 0) {
			continue
		}
		k := workKey{at, float64(1 + len(e.Scripts))}
		keys = append(keys, k)
		total += k.work
		load[layout.Zone(p)] += k.work
	}
	b.keys = keys
	mean := total / float64(zones)
	if len(keys) == 0 || slices.Max(load) <= mean*(1+balanceSlack) {
		return
	}
	slices.SortFunc(keys, func(a, b workKey) int { return cmp.Compare(a.at, b.at) })
	edges := make([]float64, 0, zones-1)
	var below float64
	j := 0
	for i := 1; i < zones; i++ {
		target := total * float64(i) / float64(zones)
		for j < len(keys) && below+keys[j].work <= target {
			below += keys[j].work
			j++
		}
		e := keys[len(keys)-1].at
		if j < len(keys) {
			e = keys[j].at
		}
		if n := len(edges); n > 0 && e <= edges[n-1] {
			// Strips may not overlap: a zone left without work is one
			// step wide.
			e = math.Nextafter(edges[n-1], math.Inf(1))
		}
		edges = append(edges, e)
	}
	layout.Edges = edges
	b.moves++
}

// EdgeMoves returns how many times the edges moved toward equal work
// (Options.Balance).
func (w *World) EdgeMoves() uint64 { return w.bal.moves }
