package runtime

import (
	"fmt"
	"math"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestTags: tags are a sorted set per entity; a tag is never empty; a
// stale handle is an error (HasTag: false); a reaped entity leaves the
// tag index.
func TestTags(t *testing.T) {
	rt, _ := newTestRuntime(t, Options{})
	a := spawnActive(t, rt, "a")
	for _, tag := range []string{"orc", "enemy", "orc", "boss"} {
		require.NoError(t, rt.Tag(a, tag))
	}
	tags, err := rt.Tags(a)
	require.NoError(t, err)
	assert.Equal(t, []string{"boss", "enemy", "orc"}, tags, "sorted, no duplicates")
	assert.True(t, rt.HasTag(a, "orc"))
	require.NoError(t, rt.Untag(a, "orc"))
	require.NoError(t, rt.Untag(a, "never"))
	assert.False(t, rt.HasTag(a, "orc"))
	assert.ErrorIs(t, rt.Tag(a, ""), ErrBadTag)

	ok, err := rt.Kill(a)
	require.NoError(t, err)
	require.True(t, ok)
	assert.ErrorIs(t, rt.Tag(a, "x"), ErrStaleHandle)
	assert.ErrorIs(t, rt.Untag(a, "x"), ErrStaleHandle)
	_, err = rt.Tags(a)
	assert.ErrorIs(t, err, ErrStaleHandle)
	assert.False(t, rt.HasTag(a, "boss"))
	assert.Empty(t, rt.tags.byTag, "a reaped entity leaves the index")
	assert.Empty(t, rt.tags.byEnt)

	b := rt.Spawn() // reuses a's slot
	require.Equal(t, a.Index, b.Index)
	tags, err = rt.Tags(b)
	require.NoError(t, err)
	assert.Empty(t, tags, "no ghost tags for the slot's next entity")
}

// TestQuery is a table of queries over one world: which filters select
// what, in which order, Active entities only.
func TestQuery(t *testing.T) {
	rt, _ := newTestRuntime(t, Options{})
	walker := bareScript{"walker"}
	type ent struct {
		name string
		pos  Vec3
		tags []string
		walk bool
	}
	var hs []Handle
	for _, e := range []ent{
		{"orc", Vec3{1, 0, 0}, []string{"enemy"}, true},    // 1
		{"elf", Vec3{0, 2, 0}, nil, true},                  // 2
		{"orc", Vec3{-1, 0, 0}, []string{"enemy"}, false},  // 3
		{"troll", Vec3{30, 0, 0}, []string{"enemy"}, true}, // 4
		{"orc", Vec3{0, 0, 3}, []string{"enemy"}, true},    // 5
	} {
		h := rt.SpawnAt(Transform{Position: e.pos, Scale: Vec3{1, 1, 1}})
		require.NoError(t, rt.SetName(h, e.name))
		for _, tag := range e.tags {
			require.NoError(t, rt.Tag(h, tag))
		}
		if e.walk {
			attach(t, rt, h, walker, nil)
		}
		require.NoError(t, rt.Activate(h))
		hs = append(hs, h)
	}
	pending := rt.Spawn() // at the origin, never activated
	require.NoError(t, rt.SetName(pending, "orc"))
	require.NoError(t, rt.Tag(pending, "enemy"))

	origin := &Vec3{}
	far := &Vec3{X: 100}
	ids := func(q Query) []int {
		var out []int
		for h := range rt.Query(q) {
			out = append(out, int(h.Index))
		}
		return out
	}
	tests := []struct {
		name string
		q    Query
		want []int
	}{
		{"everything Active, by index", Query{}, []int{1, 2, 3, 4, 5}},
		{"tag", Query{Tag: "enemy"}, []int{1, 3, 4, 5}},
		{"unknown tag", Query{Tag: "nobody"}, nil},
		{"name", Query{Name: "orc"}, []int{1, 3, 5}},
		{"script", Query{Script: "walker"}, []int{1, 2, 4, 5}},
		{"tag and script", Query{Tag: "enemy", Script: "walker"}, []int{1, 4, 5}},
		{"near: by distance, ties by index", Query{Near: origin}, []int{1, 3, 2, 5, 4}},
		{"near and radius", Query{Near: origin, Radius: 2}, []int{1, 3, 2}},
		{"radius is inclusive", Query{Near: origin, Radius: 3}, []int{1, 3, 2, 5}},
		{"near, radius and tag", Query{Near: origin, Radius: 5, Tag: "enemy"}, []int{1, 3, 5}},
		{"limit", Query{Tag: "enemy", Limit: 2}, []int{1, 3}},
		{"nearest", Query{Near: far, Limit: 1}, []int{4}},
		{"nothing in range", Query{Near: far, Radius: 10}, nil},
		{"a huge radius looks at every cell", Query{Near: origin, Radius: 1e12, Name: "orc"}, []int{1, 3, 5}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, ids(tt.q))
		})
	}

	t.Run("counted: the candidates of the index used", func(t *testing.T) {
		for _, c := range []struct {
			q                 Query
			found, considered int
		}{
			{Query{}, 5, 6},                           // every live entity, the pending one too
			{Query{Tag: "enemy"}, 4, 5},               // the tagged ones
			{Query{Tag: "nobody"}, 0, 0},              // none
			{Query{Name: "orc"}, 3, 4},                // the named ones
			{Query{Script: "walker", Limit: 1}, 1, 6}, // a limit cuts the result, not the scan
			{Query{Near: origin, Radius: 1e12}, 5, 6}, // every cell
		} {
			hs, considered := rt.QueryAppendCounted(nil, c.q)
			assert.Len(t, hs, c.found, "%+v", c.q)
			assert.Equal(t, c.considered, considered, "%+v", c.q)
		}
	})
	t.Run("FindAll", func(t *testing.T) {
		assert.Equal(t, []Handle{hs[0], hs[2], hs[4]}, slices.Collect(rt.FindAll("orc")))
	})
	t.Run("a break stops the iterator", func(t *testing.T) {
		n := 0
		for range rt.Query(Query{}) {
			n++
			break
		}
		assert.Equal(t, 1, n)
	})
	t.Run("dying entities are left out", func(t *testing.T) {
		var got []int
		inst := attach(t, rt, hs[1], &testScript{name: "probe", log: &recorder{}, update: func(*Instance, float64) error {
			if _, err := rt.Kill(hs[0]); err != nil {
				return err
			}
			got = ids(Query{Name: "orc"})
			return nil
		}}, nil)
		require.NoError(t, rt.Step(0))
		rt.Detach(inst)
		assert.Equal(t, []int{3, 5}, got)
	})
}

// TestQueryReadsCommittedPositions: a position written during a frame is
// seen by queries only after the flush, and moving far moves the entity
// in the spatial index.
func TestQueryReadsCommittedPositions(t *testing.T) {
	rt, _ := newTestRuntime(t, Options{})
	h := spawnActive(t, rt, "mover")
	near := func() []Handle { return slices.Collect(rt.Query(Query{Near: &Vec3{}, Radius: 1})) }
	var during []Handle
	attach(t, rt, h, &testScript{name: "mover", log: &recorder{}, update: func(*Instance, float64) error {
		if err := rt.Set(h, Position, Vec3{X: 500}); err != nil {
			return err
		}
		during = near()
		return nil
	}}, nil)
	require.NoError(t, rt.Step(0.1))
	assert.Equal(t, []Handle{h}, during, "within the frame, the committed position")
	assert.Empty(t, near(), "after the flush, the new one")
	assert.Equal(t, []Handle{h}, slices.Collect(rt.Query(Query{Near: &Vec3{X: 500}, Radius: 1})))
}

// TestSpatialMatchesBruteForce moves many entities at random, in and out
// of frames, and compares every radius query with a scan of all entities.
func TestSpatialMatchesBruteForce(t *testing.T) {
	rt, _ := newTestRuntime(t, Options{})
	rng := rand.New(rand.NewPCG(1, 2))
	pos := func() Vec3 { return Vec3{rng.Float64()*100 - 50, rng.Float64()*20 - 10, rng.Float64()*100 - 50} }
	var hs []Handle
	for range 500 {
		hs = append(hs, rt.SpawnAt(Transform{Position: pos()}))
		require.NoError(t, rt.Activate(hs[len(hs)-1]))
	}
	for round := range 20 {
		for i := range 100 {
			h := hs[rng.IntN(len(hs))]
			if round%2 == 0 && i%10 == 0 {
				ok, err := rt.Kill(h)
				require.NoError(t, err)
				require.True(t, ok)
				hs = slices.DeleteFunc(hs, func(x Handle) bool { return x == h })
				n := rt.SpawnAt(Transform{Position: pos()})
				require.NoError(t, rt.Activate(n))
				hs = append(hs, n)
				continue
			}
			require.NoError(t, rt.Set(h, Position, pos()))
		}
		for range 20 {
			p, r := pos(), rng.Float64()*30
			var want []Handle
			for _, h := range hs {
				q, err := rt.Get(h, Position)
				require.NoError(t, err)
				if math.Hypot(math.Hypot(q.X-p.X, q.Y-p.Y), q.Z-p.Z) <= r {
					want = append(want, h)
				}
			}
			got := slices.Collect(rt.Query(Query{Near: &p, Radius: r}))
			slices.SortFunc(want, func(a, b Handle) int { return int(a.Index) - int(b.Index) })
			slices.SortFunc(got, func(a, b Handle) int { return int(a.Index) - int(b.Index) })
			require.Equal(t, want, got, "round %d: near %v radius %v", round, p, r)
		}
	}
}

// BenchmarkQueryRadius is a radius query returning about 20 entities in
// worlds of very different sizes at the same density: its cost must not
// grow with the world.
func BenchmarkQueryRadius(b *testing.B) {
	for _, n := range []int{200, 100_000} {
		b.Run(fmt.Sprintf("entities=%d", n), func(b *testing.B) {
			rt := New(Options{OnError: Discard})
			defer rt.Close()
			// One entity per 10 square units of a flat world: a radius of
			// 8 holds about 20.
			side := math.Sqrt(float64(n) * 10)
			rng := rand.New(rand.NewPCG(3, 4))
			for range n {
				h := rt.SpawnAt(Transform{Position: Vec3{rng.Float64() * side, 0, rng.Float64() * side}})
				_ = rt.Activate(h)
			}
			center := Vec3{side / 2, 0, side / 2}
			buf := rt.QueryAppend(nil, Query{Near: &center, Radius: 8})
			b.ReportMetric(float64(len(buf)), "found")
			b.ReportAllocs()
			for b.Loop() {
				buf = rt.QueryAppend(buf[:0], Query{Near: &center, Radius: 8})
			}
		})
	}
}
