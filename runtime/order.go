package runtime

import (
	"cmp"
	"slices"
)

// The schedule and every event's observer list are ordered lists: entries
// in lanes by priority (ascending), and within a lane by a key (attach
// order). A lane is a list of chunks of at most about 2*chunkSize
// entries, each chunk in key order and every key of a chunk not greater
// than any key of the next, so that an entry finds its chunk by a binary
// search over the chunks' first keys and goes in moving no more than its
// chunk. Appending, which is what attaching and subscribing almost always
// do, is O(1) amortised; putting k entries in the middle of a lane costs
// O(k * chunkSize) at most, however long the lane, so a reload that moves
// a script to another priority costs its own instances. A removed entry
// leaves a tombstone (the zero value) in its slot, so removing is O(1); a
// chunk is compacted once at least half of it is tombstones, which keeps
// the cost amortised O(1) per removal and the list at most twice its live
// size. Neither removing nor compacting ever happens to a lane that is
// being iterated: lanes are compacted between frames and dispatches only.

// chunkSize is the number of entries a lane's chunk is filled with by
// appending and cut back to when an insertion makes it twice as long.
const chunkSize = 32

// pos is where an entry sits: its chunk and its index in the chunk.
type pos[T any] struct {
	ch *chunk[T]
	i  int
}

// entry is what an ordered list holds: a pointer with an order key and a
// place to keep its position.
type entry[T any] interface {
	comparable
	orderKey() uint64
	position() *pos[T]
}

// chunk is a run of a lane's entries in key order, with tombstones.
type chunk[T any] struct {
	items []T
	dead  int
	// first bounds the keys in items from below and those of the chunks
	// before it from above.
	first uint64
	// queued tells whether the chunk is in its list's due queue.
	queued bool
	ln     *lane[T]
}

// lane is one priority's entries.
type lane[T any] struct {
	prio   int
	chunks []*chunk[T]
	// last bounds the keys in the lane from above: an entry whose key is
	// not below it is appended.
	last uint64
}

// ordered is a list of entries ordered by (priority, key).
type ordered[T entry[T]] struct {
	lanes []*lane[T]
	// due holds the chunks that became half tombstones since the last
	// compactDue.
	due []*chunk[T]
}

// laneOf returns the lane of priority prio, making it when there is none.
func (o *ordered[T]) laneOf(prio int) *lane[T] {
	i, ok := slices.BinarySearchFunc(o.lanes, prio, func(ln *lane[T], p int) int { return cmp.Compare(ln.prio, p) })
	if ok {
		return o.lanes[i]
	}
	ln := &lane[T]{prio: prio}
	o.lanes = slices.Insert(o.lanes, i, ln)
	return ln
}

// add puts x in its place: appended when its key is the greatest in its
// lane (O(1) amortised), otherwise inserted after the entries with a key
// not greater than its own (O(chunkSize + the lane's chunks)).
func (o *ordered[T]) add(prio int, x T) {
	ln := o.laneOf(prio)
	k := x.orderKey()
	if len(ln.chunks) == 0 || k >= ln.last {
		o.push(ln, x)
		return
	}
	o.insert(ln, ln.find(k), []T{x})
}

// addSorted adds xs, sorted by key, to the lane of prio: appended when
// they come after every entry of the lane, otherwise merged into the
// chunks they belong in. O(len(xs)) amortised when they append, and
// O(len(xs) * chunkSize + the lane's chunks) at most.
func (o *ordered[T]) addSorted(prio int, xs []T) {
	if len(xs) == 0 {
		return
	}
	ln := o.laneOf(prio)
	if len(ln.chunks) == 0 || xs[0].orderKey() >= ln.last {
		for _, x := range xs {
			o.push(ln, x)
		}
		return
	}
	for len(xs) > 0 {
		c := ln.find(xs[0].orderKey())
		n := len(xs)
		if c+1 < len(ln.chunks) {
			next := ln.chunks[c+1].first
			n, _ = slices.BinarySearchFunc(xs, next, func(x T, k uint64) int { return cmp.Compare(x.orderKey(), k) })
		}
		o.insert(ln, c, xs[:n])
		xs = xs[n:]
	}
}

// push appends x to ln, none of whose keys is greater than x's.
func (o *ordered[T]) push(ln *lane[T], x T) {
	var ch *chunk[T]
	n := len(ln.chunks)
	if n > 0 && len(ln.chunks[n-1].items) < chunkSize {
		ch = ln.chunks[n-1]
	} else {
		ch = &chunk[T]{first: x.orderKey(), ln: ln}
		if n > 0 {
			// The lane is long: this chunk will be filled, so it is
			// made full-sized instead of grown five times.
			ch.items = make([]T, 0, chunkSize)
		}
		ln.chunks = append(ln.chunks, ch)
	}
	*x.position() = pos[T]{ch: ch, i: len(ch.items)}
	ch.items = append(ch.items, x)
	ln.last = x.orderKey()
}

// find returns the index of the chunk of ln where an entry of key k goes:
// the last one whose first key is not greater than k, or the first one.
func (ln *lane[T]) find(k uint64) int {
	i, _ := slices.BinarySearchFunc(ln.chunks, k, func(ch *chunk[T], k uint64) int {
		if ch.first <= k {
			return -1
		}
		return 1
	})
	return max(i-1, 0)
}

// insert merges xs, sorted by key, into ln's chunk c, where they all
// belong; entries already there come before new ones of the same key. The
// merge runs from the back, in place, so that only the entries after the
// first new one move. A chunk grown beyond 2*chunkSize is cut into chunks
// of chunkSize. O(chunkSize + len(xs)), plus the lane's chunks when it is
// cut.
func (o *ordered[T]) insert(ln *lane[T], c int, xs []T) {
	ch := ln.chunks[c]
	compact(ch)
	n := len(ch.items)
	ch.items = slices.Grow(ch.items, len(xs))[:n+len(xs)]
	items := ch.items
	i, j := n-1, len(xs)-1
	for k := len(items) - 1; j >= 0; k-- {
		if i >= 0 && items[i].orderKey() > xs[j].orderKey() {
			items[k] = items[i]
			i--
		} else {
			items[k] = xs[j]
			j--
		}
	}
	ch.first = min(ch.first, items[0].orderKey())
	ln.last = max(ln.last, items[len(items)-1].orderKey())
	if len(items) <= 2*chunkSize {
		reindex(ch, i+1)
		return
	}
	var pieces []*chunk[T]
	for a := 0; a < len(items); a += chunkSize {
		b := min(a+chunkSize, len(items))
		piece := ch
		if a > 0 {
			piece = &chunk[T]{first: items[a].orderKey(), ln: ln}
		}
		piece.items = items[a:b:b]
		reindex(piece, 0)
		pieces = append(pieces, piece)
	}
	ln.chunks = slices.Replace(ln.chunks, c, c+1, pieces...)
}

// remove leaves a tombstone where x was. It reports false when x is in no
// lane.
func (o *ordered[T]) remove(x T) bool {
	p := x.position()
	ch := p.ch
	if ch == nil {
		return false
	}
	var zero T
	ch.items[p.i] = zero
	ch.dead++
	*p = pos[T]{}
	if !ch.queued && ch.due() {
		ch.queued = true
		o.due = append(o.due, ch)
	}
	return true
}

// compactDue compacts every chunk that became at least half tombstones
// since the last call. O(those chunks), plus, for each chunk left empty,
// its lane's chunks. A lane's last chunk stays, empty, with its memory,
// for the next entry of its priority: a world has few priorities, and
// churn through an empty one then allocates nothing.
func (o *ordered[T]) compactDue() {
	for _, ch := range o.due {
		ch.queued = false
		if !ch.due() {
			continue
		}
		compact(ch)
		if ln := ch.ln; len(ch.items) == 0 && ch != ln.chunks[len(ln.chunks)-1] {
			i := slices.Index(ln.chunks, ch)
			ln.chunks = slices.Delete(ln.chunks, i, i+1)
		}
	}
	clear(o.due)
	o.due = o.due[:0]
}

// len returns the number of entries, tombstones included.
func (o *ordered[T]) len() int {
	n := 0
	for _, ln := range o.lanes {
		for _, ch := range ln.chunks {
			n += len(ch.items)
		}
	}
	return n
}

// each calls fn for every entry in order, skipping tombstones.
func (o *ordered[T]) each(fn func(T)) {
	var zero T
	for _, ln := range o.lanes {
		for _, ch := range ln.chunks {
			for _, x := range ch.items {
				if x != zero {
					fn(x)
				}
			}
		}
	}
}

func (ch *chunk[T]) due() bool { return ch.dead > 0 && 2*ch.dead >= len(ch.items) }

// compact drops ch's tombstones, keeping the order.
func compact[T entry[T]](ch *chunk[T]) {
	if ch.dead == 0 {
		return
	}
	var zero T
	ch.items = slices.DeleteFunc(ch.items, func(x T) bool { return x == zero })
	ch.dead = 0
	reindex(ch, 0)
}

// reindex records the positions of ch's entries from index from on.
func reindex[T entry[T]](ch *chunk[T], from int) {
	for i := from; i < len(ch.items); i++ {
		*ch.items[i].position() = pos[T]{ch: ch, i: i}
	}
}
