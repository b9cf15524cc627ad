package runtime

import (
	"cmp"
	"slices"
)

// The schedule and every event's observer list are ordered lists: entries
// in lanes by priority (ascending), and within a lane by a key (attach
// order). Appending, which is what attaching and subscribing almost
// always do, is O(1) amortised. A removed entry leaves a tombstone (the
// zero value) in its slot, so removing is O(1); a lane is compacted once
// at least half of it is tombstones, which keeps the cost amortised O(1)
// per removal and the lane at most twice its live size. Neither removing
// nor compacting ever happens to a lane that is being iterated: lanes are
// compacted between frames and dispatches only.

// pos is where an entry sits: its lane and its index in the lane.
type pos[T any] struct {
	ln *lane[T]
	i  int
}

// entry is what an ordered list holds: a pointer with an order key and a
// place to keep its position.
type entry[T any] interface {
	comparable
	orderKey() uint64
	position() *pos[T]
}

// lane is one priority's entries, in key order, with tombstones.
type lane[T any] struct {
	prio  int
	items []T
	dead  int
	// last bounds the keys in items from above: an entry whose key is
	// not below it is appended.
	last uint64
}

// ordered is a list of entries ordered by (priority, key).
type ordered[T entry[T]] struct {
	lanes []*lane[T]
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
// not greater than its own (O(lane)).
func (o *ordered[T]) add(prio int, x T) {
	ln := o.laneOf(prio)
	k := x.orderKey()
	if len(ln.items) == 0 || k >= ln.last {
		*x.position() = pos[T]{ln: ln, i: len(ln.items)}
		ln.items = append(ln.items, x)
		ln.last = k
		return
	}
	compact(ln)
	at, _ := slices.BinarySearchFunc(ln.items, k, func(y T, k uint64) int {
		if y.orderKey() <= k {
			return -1
		}
		return 1
	})
	ln.items = slices.Insert(ln.items, at, x)
	reindex(ln, at)
}

// addSorted adds xs, sorted by key, to the lane of prio with one merge:
// O(lane + len(xs)).
func (o *ordered[T]) addSorted(prio int, xs []T) {
	if len(xs) == 0 {
		return
	}
	ln := o.laneOf(prio)
	if len(ln.items) == 0 || xs[0].orderKey() >= ln.last {
		for _, x := range xs {
			*x.position() = pos[T]{ln: ln, i: len(ln.items)}
			ln.items = append(ln.items, x)
		}
		ln.last = xs[len(xs)-1].orderKey()
		return
	}
	compact(ln)
	merged := make([]T, 0, len(ln.items)+len(xs))
	old := ln.items
	for len(old) > 0 || len(xs) > 0 {
		if len(xs) == 0 || (len(old) > 0 && old[0].orderKey() <= xs[0].orderKey()) {
			merged, old = append(merged, old[0]), old[1:]
		} else {
			merged, xs = append(merged, xs[0]), xs[1:]
		}
	}
	ln.items = merged
	ln.last = merged[len(merged)-1].orderKey()
	reindex(ln, 0)
}

// remove leaves a tombstone where x was. It reports false when x is in no
// lane.
func (o *ordered[T]) remove(x T) bool {
	p := x.position()
	if p.ln == nil {
		return false
	}
	var zero T
	p.ln.items[p.i] = zero
	p.ln.dead++
	*p = pos[T]{}
	return true
}

// compactDue compacts every lane that is at least half tombstones.
// O(lanes) plus the compactions. A lane left empty stays, with its
// memory, for the next entry of its priority: a world has few priorities,
// and churn through an empty one then allocates nothing.
func (o *ordered[T]) compactDue() {
	for _, ln := range o.lanes {
		if ln.due() {
			compact(ln)
		}
	}
}

// len returns the number of entries, tombstones included.
func (o *ordered[T]) len() int {
	n := 0
	for _, ln := range o.lanes {
		n += len(ln.items)
	}
	return n
}

// each calls fn for every entry in order, skipping tombstones.
func (o *ordered[T]) each(fn func(T)) {
	var zero T
	for _, ln := range o.lanes {
		for _, x := range ln.items {
			if x != zero {
				fn(x)
			}
		}
	}
}

func (ln *lane[T]) due() bool { return ln.dead > 0 && 2*ln.dead >= len(ln.items) }

// compact drops ln's tombstones, keeping the order.
func compact[T entry[T]](ln *lane[T]) {
	if ln.dead == 0 {
		return
	}
	var zero T
	ln.items = slices.DeleteFunc(ln.items, func(x T) bool { return x == zero })
	ln.dead = 0
	reindex(ln, 0)
}

// reindex records the positions of ln's entries from index from on.
func reindex[T entry[T]](ln *lane[T], from int) {
	for i := from; i < len(ln.items); i++ {
		*ln.items[i].position() = pos[T]{ln: ln, i: i}
	}
}
