package runtime

import (
	"fmt"
	"math"
	"slices"
)

// Step runs one frame (SPEC 3.3):
//
//  1. the frame number increases by one and dt is added to the time;
//  2. update: over a snapshot of the schedule, every instance whose entity
//     is Active and which is neither detached nor faulted gets Update;
//  3. flush: the onDestroy of every instance detached this frame (detach
//     order); settlement and reap of every entity killed this frame (kill
//     order); the transform write cache is committed; entities spawned this
//     frame become Active; observers marked for removal are removed.
//
// Functions registered with BeforeStep run first, between frames, and those
// registered with AfterStep run last. Step
// costs O(instances) and allocates nothing of its own in steady state. It
// fails only when the runtime is closed, a frame is already running, or dt
// is NaN, infinite or negative (ErrInvalidDT); a refused Step changes
// nothing.
func (rt *Runtime) Step(dt float64) error {
	if rt.closed {
		return ErrClosed
	}
	if rt.stepping {
		return fmt.Errorf("step: %w", ErrStepping)
	}
	if math.IsNaN(dt) || math.IsInf(dt, 0) || dt < 0 {
		return fmt.Errorf("step: %w: %v (want a finite number of seconds, 0 or more)", ErrInvalidDT, dt)
	}
	for _, fn := range rt.beforeStep {
		fn()
	}
	rt.sortSchedule()
	rt.stepping = true
	rt.frame++
	rt.dt = dt
	rt.time += dt
	for i := 0; i < len(rt.schedule); {
		i = rt.updateFrom(i, dt)
	}
	rt.flush()
	rt.stepping = false
	rt.sortSchedule()
	for _, fn := range rt.afterStep {
		fn()
	}
	return nil
}

// updateFrom runs the update of the schedule from index from on and
// returns where it stopped: the schedule's end, or the instance after one
// whose Go-native Update panicked, which is faulted. One deferred recover
// guards the whole loop, so an update costs no defer of its own.
func (rt *Runtime) updateFrom(from int, dt float64) (next int) {
	next = from
	defer func() {
		if v := recover(); v != nil {
			rt.schedule[next].fault("onUpdate", recovered(v))
			next++
		}
	}()
	for ; next < len(rt.schedule); next++ {
		if inst := rt.schedule[next]; inst.updater != nil && inst.runnable() {
			if err := inst.update(dt); err != nil {
				panic(err)
			}
		}
	}
	return next
}

// flush is the end of a frame. Destroys and settlements may detach and
// kill more; they are run until none is left.
func (rt *Runtime) flush() {
	for len(rt.detached) > 0 || len(rt.dying) > 0 {
		for i := 0; i < len(rt.detached); i++ {
			// Settlement may already have destroyed an instance that an
			// onDestroy detached from its own dying entity.
			if inst := rt.detached[i]; inst.state == instCreated {
				rt.destroy(inst)
			}
		}
		clear(rt.detached)
		rt.detached = rt.detached[:0]
		for i := 0; i < len(rt.dying); i++ {
			rt.settle(rt.dying[i])
		}
		clear(rt.dying)
		rt.dying = rt.dying[:0]
	}
	rt.commitWrites()
	for _, h := range rt.spawned {
		if s, err := rt.slots.get(h); err == nil && s.state == StatePending && !s.ent.cancelled {
			s.setState(StateActive)
		}
	}
	rt.spawned = rt.spawned[:0]
	rt.events.sweep()
}

// sortSchedule merges the instances attached since the last call into the
// schedule and drops destroyed ones, keeping it in schedule order:
// priority ascending, then attach order.
func (rt *Runtime) sortSchedule() {
	rt.dropDestroyed()
	if len(rt.added) > 0 {
		rt.schedule = append(rt.schedule, rt.added...)
		clear(rt.added)
		rt.added = rt.added[:0]
		rt.unsorted = true
	}
	if rt.unsorted {
		slices.SortFunc(rt.schedule, compareInstances)
		rt.unsorted = false
	}
}

// dropDestroyed takes the destroyed instances out of the schedule and of
// the instances waiting to join it, keeping their order. O(instances).
func (rt *Runtime) dropDestroyed() {
	if rt.removed > 0 {
		rt.schedule = slices.DeleteFunc(rt.schedule, func(inst *Instance) bool { return inst.state == instDestroyed })
		rt.added = slices.DeleteFunc(rt.added, func(inst *Instance) bool { return inst.state == instDestroyed })
		rt.removed = 0
	}
}

// Schedule returns the live instances in schedule order.
func (rt *Runtime) Schedule() []*Instance {
	if !rt.stepping {
		rt.sortSchedule()
	}
	var out []*Instance
	for _, inst := range rt.schedule {
		if inst.state == instCreated && !inst.detached {
			out = append(out, inst)
		}
	}
	return out
}

// ScriptChanged tells the runtime that s changed (a hot reload): the
// priority of its instances is read again and the schedule re-sorted (ties
// keep attach order), and their event subscriptions follow the script's
// current EventNames. Call it between frames.
func (rt *Runtime) ScriptChanged(s Script) error {
	if rt.stepping {
		return fmt.Errorf("script changed: %w", ErrStepping)
	}
	rt.sortSchedule()
	for _, inst := range rt.schedule {
		if inst.script != s || inst.state != instCreated {
			continue
		}
		inst.priority = s.Priority()
		inst.unsubscribe()
		inst.handler, _ = s.(EventHandler)
		if inst.handler != nil {
			rt.events.subscribe(inst)
		}
	}
	rt.unsorted = true
	rt.sortSchedule()
	rt.events.resort()
	return nil
}

// Retry gives a faulted instance a fresh chance (after its script was
// reloaded): the fault is cleared and, when its onCreate had failed,
// onCreate runs again. It does nothing for an instance that is not faulted
// or no longer live.
func (rt *Runtime) Retry(inst *Instance) {
	if !inst.faulted || inst.state != instCreated {
		return
	}
	inst.faulted = false
	if !inst.createFailed {
		return
	}
	inst.createFailed = false
	inst.state = instPending
	if err := inst.create(); err != nil {
		panic(err)
	}
}

// Close shuts the runtime down (SPEC 3.4): every remaining instance gets
// onDestroy in schedule order, every entity is reaped, then the functions
// registered with OnClose run. Frame keeps the last frame's number. Close
// is idempotent; it fails only when called from inside a frame.
func (rt *Runtime) Close() error {
	if rt.closed {
		return nil
	}
	if rt.stepping {
		return fmt.Errorf("close: %w", ErrStepping)
	}
	rt.closed = true
	rt.sortSchedule()
	for _, inst := range rt.schedule {
		if inst.state == instCreated {
			rt.destroy(inst)
		}
	}
	for len(rt.slots.dense) > 0 {
		h := rt.slots.dense[len(rt.slots.dense)-1]
		s := &rt.slots.slots[h.Index]
		if s.state == StateActive {
			s.setState(StateDying)
		}
		rt.reap(h)
	}
	rt.schedule = nil
	rt.added = nil
	for _, fn := range rt.onClose {
		fn()
	}
	return nil
}
