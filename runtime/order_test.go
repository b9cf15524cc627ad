package runtime

import (
	"cmp"
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// item is an ordered list's entry for tests: seq is the order it was
// added in, which breaks ties between equal keys.
type item struct {
	prio int
	key  uint64
	seq  int
	at   pos[*item]
}

func (x *item) orderKey() uint64      { return x.key }
func (x *item) position() *pos[*item] { return &x.at }

// orderModel is an ordered list beside the entries it should hold.
type orderModel struct {
	o    ordered[*item]
	live []*item
	seq  int
}

func (m *orderModel) newItem(prio int, key uint64) *item {
	m.seq++
	x := &item{prio: prio, key: key, seq: m.seq}
	m.live = append(m.live, x)
	return x
}

// want returns the live entries in the order the list must give them:
// by priority, then key, then the order they were added in.
func (m *orderModel) want() []*item {
	out := append([]*item{}, m.live...)
	slices.SortFunc(out, func(a, b *item) int {
		return cmp.Or(cmp.Compare(a.prio, b.prio), cmp.Compare(a.key, b.key), cmp.Compare(a.seq, b.seq))
	})
	return out
}

// check asserts the list's order, every entry's recorded position, and
// the chunks' bounds.
func (m *orderModel) check(t *testing.T, step string) {
	t.Helper()
	got := []*item{}
	m.o.each(func(x *item) { got = append(got, x) })
	require.Equal(t, m.want(), got, "order after %s", step)
	for _, x := range m.live {
		require.NotNil(t, x.at.ch, "%s: entry %d has no position", step, x.seq)
		require.Same(t, x, x.at.ch.items[x.at.i], "%s: entry %d's position", step, x.seq)
	}
	for _, ln := range m.o.lanes {
		for c, ch := range ln.chunks {
			require.Same(t, ln, ch.ln, "%s: chunk's lane", step)
			require.LessOrEqual(t, len(ch.items), 2*chunkSize, "%s: chunk length", step)
			for _, x := range ch.items {
				if x == nil {
					continue
				}
				require.LessOrEqual(t, ch.first, x.key, "%s: chunk %d's first key", step, c)
				require.LessOrEqual(t, x.key, ln.last, "%s: lane's last key", step)
				if c+1 < len(ln.chunks) {
					require.LessOrEqual(t, x.key, ln.chunks[c+1].first, "%s: chunk %d against the next", step, c)
				}
			}
		}
	}
}

func (m *orderModel) remove(x *item) {
	m.o.remove(x)
	m.live = slices.DeleteFunc(m.live, func(y *item) bool { return y == x })
}

// TestOrderedModel drives an ordered list with random appends, inserts,
// sorted batches (the reload of a script that changed priority) and
// removals, and compares it after every step with the sorted model.
func TestOrderedModel(t *testing.T) {
	for _, seed := range []uint64{1, 2, 3} {
		t.Run(fmt.Sprint(seed), func(t *testing.T) {
			r := rand.New(rand.NewPCG(seed, 7))
			var m orderModel
			next := uint64(0)
			for step := range 1200 {
				prio := r.IntN(3)
				switch op := r.IntN(10); {
				case op < 4:
					next += uint64(r.IntN(3))
					m.o.add(prio, m.newItem(prio, next))
				case op < 6:
					m.o.add(prio, m.newItem(prio, r.Uint64N(next+1)))
				case op < 7:
					n := 1 + r.IntN(3*chunkSize)
					keys := make([]uint64, n)
					for i := range keys {
						keys[i] = r.Uint64N(next + 1)
					}
					slices.Sort(keys)
					xs := make([]*item, n)
					for i, k := range keys {
						xs[i] = m.newItem(prio, k)
					}
					m.o.addSorted(prio, xs)
				case op < 9 && len(m.live) > 0:
					for range 1 + r.IntN(2*chunkSize) {
						if len(m.live) == 0 {
							break
						}
						m.remove(m.live[r.IntN(len(m.live))])
					}
				default:
					m.o.compactDue()
					require.LessOrEqual(t, m.o.len(), 2*len(m.live)+len(m.o.lanes), "tombstones after compaction")
				}
				m.check(t, fmt.Sprintf("step %d", step))
			}
		})
	}
}

// TestOrderedMoveCost: moving a few entries into the middle of a long
// lane touches their chunks only, not the lane: the positions of all but
// a chunk's worth of the lane's entries stay as they were.
func TestOrderedMoveCost(t *testing.T) {
	var m orderModel
	var movers []*item
	for i := range 100_000 {
		x := m.newItem(0, uint64(i))
		m.o.add(0, x)
		if i%10_000 == 5_000 {
			movers = append(movers, x)
		}
	}
	before := map[*item]pos[*item]{}
	for _, x := range m.live {
		before[x] = x.at
	}
	for _, x := range movers {
		m.o.remove(x)
		x.prio = 1
		m.o.add(1, x)
	}
	m.o.compactDue()
	for _, x := range movers {
		m.o.remove(x)
		x.prio = 0
	}
	m.o.addSorted(0, movers)
	m.o.compactDue()
	m.check(t, "moves")

	moved := 0
	for x, p := range before {
		if x.at != p {
			moved++
		}
	}
	assert.LessOrEqual(t, moved, len(movers)*2*chunkSize, "entries repositioned by moving %d", len(movers))
}
