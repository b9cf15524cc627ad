package luabind

import (
	"cmp"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestSortByID: the view's sort orders by identity as a comparison sort
// does, for small and large views, identities spread over 63 bits or
// sharing their high bytes, and keeps each entry's place with its
// identity.
func TestSortByID(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for _, tc := range []struct {
		name string
		n    int
		id   func() uint64
	}{
		{"few", 100, func() uint64 { return r.Uint64() >> 1 }},
		{"many", 5000, func() uint64 { return r.Uint64() >> 1 }},
		{"high bytes shared", 5000, func() uint64 { return 1<<62 | r.Uint64N(1<<20) }},
		{"one identity", 300, func() uint64 { return 7 }},
		{"sorted already", 3000, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ps := make([]idPlace, tc.n)
			for i := range ps {
				id := uint64(i)
				if tc.id != nil {
					id = tc.id()
				}
				ps[i] = idPlace{id, int32(i)}
			}
			want := slices.Clone(ps)
			slices.SortStableFunc(want, func(a, b idPlace) int { return cmp.Compare(a.id, b.id) })
			sortByID(ps)
			assert.Equal(t, want, ps)
		})
	}
}
