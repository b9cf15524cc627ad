package runtime

import (
	"cmp"
	"iter"
	"slices"
)

// Query selects Active entities. Its filters combine with AND;
// a zero field does not filter.
type Query struct {
	// Tag keeps the entities that carry this tag.
	Tag string
	// Script keeps the entities with a live instance of this script.
	Script string
	// Name keeps the entities with this scene name.
	Name string
	// Near, when set, sorts the result by distance from this point (ties
	// by entity index) instead of by entity index.
	Near *Vec3
	// Radius, with Near, keeps the entities within this distance of it.
	// The default (zero) value does not filter by distance.
	Radius float64
	// Limit keeps the first Limit entities of the sorted result. The
	// default (zero) value keeps them all.
	Limit int
}

// queryHit is one entity found by a query, with its squared distance.
type queryHit struct {
	h  Handle
	d2 float64
}

// Query returns the Active entities that match q, in q's order: by
// distance from q.Near, or by entity index. Positions are the committed
// ones. The result is computed when iteration starts; the
// cost is in proportion to the candidates of the most selective index:
// the entities in the cells around Near (with Radius), the tagged
// entities (with Tag), the named ones (with Name), or else every entity.
func (rt *Runtime) Query(q Query) iter.Seq[Handle] {
	return func(yield func(Handle) bool) {
		for _, h := range rt.QueryAppend(nil, q) {
			if !yield(h) {
				return
			}
		}
	}
}

// FindAll returns the Active entities named name, by entity index.
func (rt *Runtime) FindAll(name string) iter.Seq[Handle] {
	return rt.Query(Query{Name: name})
}

// QueryAppend appends the result of q to dst and returns it: Query
// without the iterator, for callers that keep a buffer.
func (rt *Runtime) QueryAppend(dst []Handle, q Query) []Handle {
	dst, _ = rt.QueryAppendCounted(dst, q)
	return dst
}

// QueryAppendCounted is QueryAppend that also returns how many entities
// it considered, the measure of its work besides the result's size, for
// callers that charge the work to whoever asked.
func (rt *Runtime) QueryAppendCounted(dst []Handle, q Query) ([]Handle, int) {
	hits := rt.queryHits[:0]
	considered := 0
	consider := func(idx uint32) {
		considered++
		if h, d2, ok := rt.match(idx, &q); ok {
			hits = append(hits, queryHit{h, d2})
		}
	}
	switch {
	case q.Near != nil && q.Radius > 0:
		rt.spatial.within(*q.Near, q.Radius, consider)
	case q.Tag != "":
		for idx := range rt.tags.byTag[q.Tag] {
			consider(idx)
		}
	case q.Name != "":
		if l := rt.names[q.Name]; l != nil {
			for _, h := range l.hs {
				if !h.IsZero() {
					consider(h.Index)
				}
			}
		}
	default:
		for _, h := range rt.slots.dense {
			consider(h.Index)
		}
	}
	if q.Near != nil {
		slices.SortFunc(hits, func(a, b queryHit) int {
			if c := cmp.Compare(a.d2, b.d2); c != 0 {
				return c
			}
			return cmp.Compare(a.h.Index, b.h.Index)
		})
	} else {
		slices.SortFunc(hits, func(a, b queryHit) int { return cmp.Compare(a.h.Index, b.h.Index) })
	}
	if q.Limit > 0 && len(hits) > q.Limit {
		hits = hits[:q.Limit]
	}
	for _, hit := range hits {
		dst = append(dst, hit.h)
	}
	clear(hits)
	rt.queryHits = hits[:0]
	return dst, considered
}

// match checks the entity in slot idx against q and returns its handle
// and squared distance from q.Near.
func (rt *Runtime) match(idx uint32, q *Query) (Handle, float64, bool) {
	s := &rt.slots.slots[idx]
	if s.state != StateActive {
		return Handle{}, 0, false
	}
	e := s.ent
	h := Handle{Index: idx, Gen: s.gen}
	if q.Name != "" && e.name != q.Name {
		return h, 0, false
	}
	if q.Tag != "" {
		if _, ok := rt.tags.byTag[q.Tag][idx]; !ok {
			return h, 0, false
		}
	}
	if q.Script != "" && !slices.ContainsFunc(e.insts, func(inst *Instance) bool {
		return inst.state == instCreated && !inst.detached && inst.script.Name() == q.Script
	}) {
		return h, 0, false
	}
	var d2 float64
	if q.Near != nil {
		p, n := e.transform.Position, *q.Near
		dx, dy, dz := p.X-n.X, p.Y-n.Y, p.Z-n.Z
		d2 = dx*dx + dy*dy + dz*dz
		if q.Radius > 0 && d2 > q.Radius*q.Radius {
			return h, 0, false
		}
	}
	return h, d2, true
}
