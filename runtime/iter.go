package runtime

import (
	"cmp"
	"iter"
	"slices"
)

// Iterators over the world, for embedders. Each one takes its
// set when iteration starts, so the loop's body may spawn, kill, attach
// and detach: what it adds is not yielded, and an instance it destroys
// before its turn is skipped. Query and FindAll (query.go) select
// entities by name, tag, script and distance.

// AllEntities yields every entity that has not been reaped (Pending,
// Active or Dying), by entity index. O(entities log entities).
func (rt *Runtime) AllEntities() iter.Seq[Handle] {
	return func(yield func(Handle) bool) {
		hs := rt.Entities()
		slices.SortFunc(hs, func(a, b Handle) int { return cmp.Compare(a.Index, b.Index) })
		for _, h := range hs {
			if !yield(h) {
				return
			}
		}
	}
}

// AllInstances yields every live script instance (created, neither
// detached nor destroyed; faulted ones too), in schedule order.
func (rt *Runtime) AllInstances() iter.Seq[*Instance] {
	return liveSeq(func() []*Instance { return rt.Schedule() })
}

// InstancesOf yields the live instances of script s, in attach order.
// O(its instances).
func (rt *Runtime) InstancesOf(s Script) iter.Seq[*Instance] {
	return liveSeq(func() []*Instance { return rt.ScriptInstances(s) })
}

// QueryInstances yields the live instances of the entities q selects
// (see Query), each with its entity: entities in q's order, an entity's
// instances in attach order. With q.Script set, only that script's
// instances are yielded.
func (rt *Runtime) QueryInstances(q Query) iter.Seq2[Handle, *Instance] {
	return func(yield func(Handle, *Instance) bool) {
		for _, h := range rt.QueryAppend(nil, q) {
			insts, err := rt.Instances(h)
			if err != nil {
				continue
			}
			for _, inst := range insts {
				if q.Script != "" && inst.script.Name() != q.Script {
					continue
				}
				if inst.Live() && !inst.Detached() && !yield(h, inst) {
					return
				}
			}
		}
	}
}

// liveSeq yields the instances list returns, when iteration starts,
// skipping those destroyed or detached before their turn.
func liveSeq(list func() []*Instance) iter.Seq[*Instance] {
	return func(yield func(*Instance) bool) {
		for _, inst := range list() {
			if inst.Live() && !inst.Detached() && !yield(inst) {
				return
			}
		}
	}
}
