package luabind

import (
	"cmp"
	"math"
	"slices"

	"github.com/luahost/luahost/runtime"
)

// ViewEntity is one entity of a View: its identity, the zone that owns
// it, and its committed name, tags (sorted), scripts (of its live
// instances, in attach order) and transform.
type ViewEntity struct {
	ID        uint64
	Zone      int
	Name      string
	Tags      []string
	Scripts   []string
	Transform runtime.Transform
}

// part returns the transform's part p.
func (v *ViewEntity) part(p runtime.Part) runtime.Vec3 {
	switch p {
	case runtime.Rotation:
		return v.Transform.Rotation
	case runtime.Scale:
		return v.Transform.Scale
	}
	return v.Transform.Position
}

// viewCell is the side of the view's grid cells, in world units, over x
// and z.
const viewCell = 16

type viewCellKey struct{ x, z int64 }

// View is the committed state of every Active entity of a zoned world
// between two frames, which the hosts under zoned rules read during the
// next frame (SetView). It is built once a frame from every zone's
// AppendView and never changed, so every zone's goroutine may read it.
// A lookup by identity is a binary search, by name, tag and script O(1)
// plus the answer; queries with a radius visit the grid cells (16 units
// square, over x and z) around near.
type View struct {
	ents []ViewEntity
	// byID is the entities' identities and places in ents, sorted by
	// identity (sorting ents itself would move their large entries).
	byID     []idPlace
	byName   map[string][]int32
	byTag    map[string][]int32
	byScript map[string][]int32
	grid     map[viewCellKey][]int32
}

// idPlace is an entity's identity and its place in a View's entries.
type idPlace struct {
	id uint64
	i  int32
}

// NewView builds a view of ents, which it keeps.
func NewView(ents []ViewEntity) *View {
	v := &View{ents: ents, byID: make([]idPlace, len(ents)), byName: make(map[string][]int32),
		byTag: make(map[string][]int32), byScript: make(map[string][]int32), grid: make(map[viewCellKey][]int32)}
	for i := range ents {
		e := &ents[i]
		n := int32(i)
		v.byID[i] = idPlace{e.ID, n}
		if e.Name != "" {
			v.byName[e.Name] = append(v.byName[e.Name], n)
		}
		for _, t := range e.Tags {
			v.byTag[t] = append(v.byTag[t], n)
		}
		for j, s := range e.Scripts {
			if !slices.Contains(e.Scripts[:j], s) {
				v.byScript[s] = append(v.byScript[s], n)
			}
		}
		k := viewCellOf(e.Transform.Position.X, e.Transform.Position.Z)
		v.grid[k] = append(v.grid[k], n)
	}
	sortByID(v.byID)
	return v
}

// sortByID sorts ps by identity. A view of a big world is built every
// frame on one goroutine while the zones wait: a radix sort, a byte of
// the identity a pass (those all entries share skipped), is linear where
// a comparison sort is not. O(len(ps)) time, and a buffer as large.
func sortByID(ps []idPlace) {
	if len(ps) < 256 {
		slices.SortFunc(ps, func(a, b idPlace) int { return cmp.Compare(a.id, b.id) })
		return
	}
	var counts [8][256]int
	for _, p := range ps {
		for b := range counts {
			counts[b][byte(p.id>>(8*b))]++
		}
	}
	src, dst := ps, make([]idPlace, len(ps))
	for b := range counts {
		c := &counts[b]
		if c[byte(src[0].id>>(8*b))] == len(src) {
			continue
		}
		at := 0
		for i, n := range c {
			c[i], at = at, at+n
		}
		for _, p := range src {
			k := byte(p.id >> (8 * b))
			dst[c[k]] = p
			c[k]++
		}
		src, dst = dst, src
	}
	if &src[0] != &ps[0] {
		copy(ps, src)
	}
}

func viewCellOf(x, z float64) viewCellKey {
	return viewCellKey{int64(math.Floor(x / viewCell)), int64(math.Floor(z / viewCell))}
}

// Entities returns the view's entries, in the order NewView was given
// them: the caller may reuse them once no host reads the view.
func (v *View) Entities() []ViewEntity { return v.ents }

// Len returns how many entities the view holds.
func (v *View) Len() int {
	if v == nil {
		return 0
	}
	return len(v.ents)
}

// Get returns the entity of identity id, or nil.
func (v *View) Get(id uint64) *ViewEntity {
	if v == nil {
		return nil
	}
	k, ok := slices.BinarySearchFunc(v.byID, id, func(p idPlace, id uint64) int { return cmp.Compare(p.id, id) })
	if !ok {
		return nil
	}
	return &v.ents[v.byID[k].i]
}

// Query returns the identities of the entities that match q, as
// runtime.Runtime.Query matches them: sorted by distance from q.Near
// with ties by identity, or else by identity.
func (v *View) Query(q runtime.Query) []uint64 {
	ids, _ := v.query(q)
	return ids
}

// query is Query that also returns how many entities it considered.
func (v *View) query(q runtime.Query) ([]uint64, int) {
	if v == nil {
		return nil, 0
	}
	type hit struct {
		i  int32
		d2 float64
	}
	var hits []hit
	considered := 0
	consider := func(i int32) {
		considered++
		e := &v.ents[i]
		if q.Name != "" && e.Name != q.Name {
			return
		}
		if q.Tag != "" {
			if _, ok := slices.BinarySearch(e.Tags, q.Tag); !ok {
				return
			}
		}
		if q.Script != "" && !slices.Contains(e.Scripts, q.Script) {
			return
		}
		var d2 float64
		if q.Near != nil {
			p, n := e.Transform.Position, *q.Near
			dx, dy, dz := p.X-n.X, p.Y-n.Y, p.Z-n.Z
			d2 = dx*dx + dy*dy + dz*dz
			if q.Radius > 0 && d2 > q.Radius*q.Radius {
				return
			}
		}
		hits = append(hits, hit{i, d2})
	}
	switch {
	case q.Near != nil && q.Radius > 0 && q.Radius < 1e6:
		lo := viewCellOf(q.Near.X-q.Radius, q.Near.Z-q.Radius)
		hi := viewCellOf(q.Near.X+q.Radius, q.Near.Z+q.Radius)
		for x := lo.x; x <= hi.x; x++ {
			for z := lo.z; z <= hi.z; z++ {
				for _, i := range v.grid[viewCellKey{x, z}] {
					consider(i)
				}
			}
		}
	case q.Tag != "":
		for _, i := range v.byTag[q.Tag] {
			consider(i)
		}
	case q.Name != "":
		for _, i := range v.byName[q.Name] {
			consider(i)
		}
	case q.Script != "":
		for _, i := range v.byScript[q.Script] {
			consider(i)
		}
	default:
		for _, p := range v.byID {
			consider(p.i)
		}
	}
	byID := func(a, b hit) int { return cmp.Compare(v.ents[a.i].ID, v.ents[b.i].ID) }
	if q.Near != nil {
		slices.SortFunc(hits, func(a, b hit) int {
			if c := cmp.Compare(a.d2, b.d2); c != 0 {
				return c
			}
			return byID(a, b)
		})
	} else {
		slices.SortFunc(hits, byID)
	}
	if q.Limit > 0 && len(hits) > q.Limit {
		hits = hits[:q.Limit]
	}
	ids := make([]uint64, len(hits))
	for i, h := range hits {
		ids[i] = v.ents[h.i].ID
	}
	return ids, considered
}

// AppendView appends the host's Active entities, as owned by zone, to
// dst and returns it. Under no zoned rules it appends nothing.
func (h *Host) AppendView(dst []ViewEntity, zone int) []ViewEntity {
	if !h.world.on {
		return dst
	}
	rt := h.rt
	// Entities running the same scripts share one list of their names.
	var insts []*runtime.Instance
	var names, last []string
	h.zoned.all = rt.AppendEntities(h.zoned.all[:0])
	for _, e := range h.zoned.all {
		if st, _ := rt.State(e); st != runtime.StateActive {
			continue
		}
		ve := ViewEntity{ID: h.Identity(e), Zone: zone}
		ve.Name, _ = rt.Name(e)
		if tags, _ := rt.Tags(e); len(tags) > 0 {
			ve.Tags = slices.Clone(tags)
			slices.Sort(ve.Tags)
		}
		insts, _ = rt.InstancesAppend(insts[:0], e)
		names = names[:0]
		for _, inst := range insts {
			if inst.Live() && !inst.Detached() {
				names = append(names, inst.Script().Name())
			}
		}
		if !slices.Equal(names, last) {
			last = slices.Clone(names)
		}
		ve.Scripts = last
		ve.Transform.Position, _ = rt.Get(e, runtime.Position)
		ve.Transform.Rotation, _ = rt.Get(e, runtime.Rotation)
		ve.Transform.Scale, _ = rt.Get(e, runtime.Scale)
		dst = append(dst, ve)
	}
	return dst
}

// SetView gives the host the view its scripts read during the next
// frame (see View). Zones set the same view on every zone's host between
// frames; a host under zoned rules that is never given one builds its
// own, of its runtime, at the start of every frame.
func (h *Host) SetView(v *View) { h.zoned.view, h.zoned.viewSet = v, true }
