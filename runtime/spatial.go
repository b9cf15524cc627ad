package runtime

import "math"

// SpatialCell is the edge, in world units, of the cells of the spatial
// hash that answers radius queries. A query of radius r looks
// at about (2r/SpatialCell + 1)^3 cells, or at every occupied cell when
// that is fewer.
const SpatialCell = 8.0

// maxSpareCells bounds the emptied cell lists kept for reuse.
const maxSpareCells = 64

// cellKey names one cell of the spatial hash.
type cellKey struct{ x, y, z int32 }

func cellOf(p Vec3) cellKey {
	c := func(f float64) int32 {
		f = math.Floor(f / SpatialCell)
		// Far-away or NaN coordinates share the edge cells; queries
		// check the exact distance anyway.
		switch {
		case f != f:
			return 0
		case f < math.MinInt32:
			return math.MinInt32
		case f > math.MaxInt32:
			return math.MaxInt32
		}
		return int32(f)
	}
	return cellKey{c(p.X), c(p.Y), c(p.Z)}
}

// spatialHash files every entity under the cell of its committed
// position. It is updated where a position is committed (spawn, a write
// outside a frame, the flush's commit) and when an entity is reaped, so
// it always agrees with the transforms scripts read.
type spatialHash struct {
	cells map[cellKey][]uint32
	// at[i] is where slot i is filed: its cell and its place in that
	// cell's list; in is false for a slot that is not filed.
	at []spatialEntry
	// spare are the lists of cells that emptied, reused for new cells so
	// that churn in one place allocates nothing.
	spare [][]uint32
}

type spatialEntry struct {
	cell cellKey
	// pos is as wide as a slot index: a cell holds at most every slot.
	pos uint32
	in  bool
}

// place files slot idx under the cell of p, moving it if it was filed
// elsewhere. O(1) amortised.
func (sh *spatialHash) place(idx uint32, p Vec3) {
	c := cellOf(p)
	if int(idx) < len(sh.at) && sh.at[idx].in {
		if sh.at[idx].cell == c {
			return
		}
		sh.remove(idx)
	}
	if sh.cells == nil {
		sh.cells = make(map[cellKey][]uint32)
	}
	for int(idx) >= len(sh.at) {
		sh.at = append(sh.at, spatialEntry{})
	}
	list, ok := sh.cells[c]
	if !ok && len(sh.spare) > 0 {
		list = sh.spare[len(sh.spare)-1]
		sh.spare = sh.spare[:len(sh.spare)-1]
	}
	sh.at[idx] = spatialEntry{cell: c, pos: uint32(len(list)), in: true}
	sh.cells[c] = append(list, idx)
}

// remove unfiles slot idx. O(1).
func (sh *spatialHash) remove(idx uint32) {
	if int(idx) >= len(sh.at) || !sh.at[idx].in {
		return
	}
	e := sh.at[idx]
	list := sh.cells[e.cell]
	last := len(list) - 1
	moved := list[last]
	list[e.pos] = moved
	sh.at[moved].pos = e.pos
	if last == 0 {
		delete(sh.cells, e.cell)
		if len(sh.spare) < maxSpareCells {
			sh.spare = append(sh.spare, list[:0])
		}
	} else {
		sh.cells[e.cell] = list[:last]
	}
	sh.at[idx] = spatialEntry{}
}

// within calls fn for every slot filed in a cell that a sphere of radius
// r around p touches: a superset of the slots within r.
func (sh *spatialHash) within(p Vec3, r float64, fn func(idx uint32)) {
	lo, hi := cellOf(Vec3{p.X - r, p.Y - r, p.Z - r}), cellOf(Vec3{p.X + r, p.Y + r, p.Z + r})
	n := (float64(hi.x) - float64(lo.x) + 1) * (float64(hi.y) - float64(lo.y) + 1) * (float64(hi.z) - float64(lo.z) + 1)
	in := func(c cellKey) bool {
		return c.x >= lo.x && c.x <= hi.x && c.y >= lo.y && c.y <= hi.y && c.z >= lo.z && c.z <= hi.z
	}
	if n > float64(len(sh.cells)) {
		for c, list := range sh.cells {
			if in(c) {
				for _, idx := range list {
					fn(idx)
				}
			}
		}
		return
	}
	for x := lo.x; ; x++ {
		for y := lo.y; ; y++ {
			for z := lo.z; ; z++ {
				for _, idx := range sh.cells[cellKey{x, y, z}] {
					fn(idx)
				}
				if z == hi.z {
					break
				}
			}
			if y == hi.y {
				break
			}
		}
		if x == hi.x {
			break
		}
	}
}
