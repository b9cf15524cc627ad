package runtime

import (
	"fmt"
	"math"
	"slices"
)

// Step runs one frame (docs/contract.md, "The frame"):
//
//  1. the frame number increases by one and dt is added to the time;
//  2. update: over a snapshot of the schedule, every instance whose entity
//     is Active and which is neither detached nor faulted gets Update;
//  3. flush: the onDestroy of every instance detached this frame (detach
//     order); settlement and reap of every entity killed this frame (kill
//     order); the transform write cache is committed; entities spawned this
//     frame become Active; the slots of observers removed during the
//     frame are reclaimed where half a lane is dead.
//
// Functions registered with BeforeStep run first, between frames, those
// registered with FrameStart after step 1, and those registered with
// AfterStep run last. Step
// costs O(instances) and allocates nothing of its own in steady state. It
// fails only when the runtime is closed, a frame is already running, or dt
// is NaN, infinite or negative (ErrInvalidDT); a refused Step changes
// nothing. A panic of a hook (BeforeStep, FrameStart, AfterStep) is
// recovered and reported with its Go stack, and the frame goes on; a
// panic of OnError ends nothing either, but Step returns it, wrapped so
// that it matches ErrPanic, once the frame ended. Step is StepContext
// with a context that is never done.
func (rt *Runtime) Step(dt float64) error { return rt.step(dt) }

func (rt *Runtime) step(dt float64) (err error) {
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
		rt.guard("BeforeStep", fn)
	}
	rt.stepping = true
	flushed := false
	defer func() {
		// Nothing the embedder gave may leave the runtime inside a
		// frame: a panic that no narrower guard caught ends the frame
		// here, and Step returns it.
		if v := recover(); v != nil {
			pe, ok := v.(*PanicError)
			if !ok {
				pe = NewPanicError(v)
			}
			if !flushed {
				rt.guard("flush", rt.flush)
			}
			rt.stepping = false
			rt.joinAdded()
			err = fmt.Errorf("step: %w", pe)
		}
	}()
	rt.frame++
	rt.dt = dt
	rt.time += dt
	for _, fn := range rt.frameStart {
		rt.guard("FrameStart", fn)
	}
	for at := (cursor{}); at.l < len(rt.sched.lanes); {
		at = rt.updateFrom(at, dt)
	}
	rt.endUpdate()
	rt.flush()
	flushed = true
	rt.stepping = false
	rt.joinAdded()
	for _, fn := range rt.afterStep {
		rt.guard("AfterStep", fn)
	}
	if pe := rt.frameCtl.panicked; pe != nil {
		rt.frameCtl.panicked = nil
		return fmt.Errorf("step: OnError: %w", pe)
	}
	return nil
}

// cursor is a place in the schedule: lane l, its chunk c, index i.
type cursor struct{ l, c, i int }

// updateFrom runs the update of the schedule from at on, and returns
// where it stopped: the schedule's end, or the instance after one whose
// Go-native Update panicked, which is faulted. One deferred recover guards
// the whole loop, so an update costs no defer of its own. Lanes are
// neither compacted nor grown during a frame, so the loop may hold on to a
// chunk's items. A RunUpdater gets the run of instances that starts at
// its first due one (Run).
func (rt *Runtime) updateFrom(at cursor, dt float64) (next cursor) {
	next = at
	run := &rt.run
	defer func() {
		if v := recover(); v != nil {
			if run.items != nil {
				next.i = run.i
				run.items = nil
			}
			rt.sched.lanes[next.l].chunks[next.c].items[next.i].fault("onUpdate", recovered(v))
			next.i++
		}
	}()
	for ; next.l < len(rt.sched.lanes); next.l, next.c = next.l+1, 0 {
		chunks := rt.sched.lanes[next.l].chunks
		for ; next.c < len(chunks); next.c, next.i = next.c+1, 0 {
			items := chunks[next.c].items
			for ; next.i < len(items); next.i++ {
				if inst := items[next.i]; inst != nil && inst.updater != nil && inst.runnable() {
					if rt.interrupted() {
						rt.frameCtl.skipped++
						continue
					}
					rt.frameCtl.updated++
					if inst.runs {
						*run = Run{rt: rt, u: inst.updater, items: items, i: next.i, first: inst}
						inst.updater.(RunUpdater).UpdateRun(run, dt)
						next.i = run.i
						run.items = nil
						continue
					}
					if err := inst.update(dt); err != nil {
						panic(err)
					}
				}
			}
		}
	}
	return next
}

// Run is a run of instances of the schedule that share a RunUpdater,
// handed to its UpdateRun during a frame's update. It is valid only
// during that call.
type Run struct {
	rt    *Runtime
	u     Updater
	items []*Instance
	// i is the index in items of the instance given last.
	i     int
	first *Instance
}

// Next returns the next instance of the run due its update, counting it
// as updated, or nil once the run has no more. An instance is due as for
// Update: its entity is Active and it is neither detached nor faulted,
// looked at when Next reaches it, so that what the callbacks before it
// did counts; while the frame's context is done (StepContext), the
// instances Next passes are counted as skipped.
func (r *Run) Next() *Instance {
	if inst := r.first; inst != nil {
		r.first = nil
		return inst
	}
	for r.i+1 < len(r.items) {
		inst := r.items[r.i+1]
		if inst == nil {
			r.i++
			continue
		}
		if inst.updater != r.u {
			return nil
		}
		r.i++
		if !inst.runnable() {
			continue
		}
		if r.rt.interrupted() {
			r.rt.frameCtl.skipped++
			continue
		}
		r.rt.frameCtl.updated++
		return inst
	}
	return nil
}

// Fail faults the instance Next gave last and reports err as its
// onUpdate's failure, as an error returned by Update is.
func (r *Run) Fail(err error) { r.items[r.i].fault("onUpdate", err) }

// flush is the end of a frame. Destroys and settlements may detach and
// kill more; they are run until none is left.
func (rt *Runtime) flush() {
	rt.settleAll()
	rt.commitWrites()
	for _, h := range rt.spawned {
		if s, err := rt.slots.get(h); err == nil && s.state == StatePending && !s.ent.cancelled {
			s.setState(StateActive)
		}
	}
	rt.spawned = rt.spawned[:0]
	rt.events.sweep()
}

// settleDeferred runs, at the end of an outermost dispatch outside a frame,
// the destroys and settlements its handlers caused, as a frame's flush
// would: no handler runs on an entity whose onDestroy already ran.
func (rt *Runtime) settleDeferred() {
	if rt.flushing || rt.stepping || (len(rt.detached) == 0 && len(rt.dying) == 0) {
		return
	}
	rt.flushing = true
	defer func() { rt.flushing = false }()
	rt.settleAll()
	if !rt.closed {
		// Close walks the schedule while it destroys: no compaction then.
		rt.sched.compactDue()
	}
}

// settleAll destroys the detached instances (detach order) and settles
// the dying entities (kill order). Destroys and settlements may detach
// and kill more; they are run until none is left.
func (rt *Runtime) settleAll() {
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
}

// joinAdded ends a frame's changes to the schedule: the instances
// attached during the frame join it (appended: their attach order is the
// latest) and lanes that are half tombstones are compacted. O(attached +
// lanes) amortised.
func (rt *Runtime) joinAdded() {
	for _, inst := range rt.added {
		if inst.state != instDestroyed {
			rt.sched.add(inst.priority, inst)
		}
	}
	clear(rt.added)
	rt.added = rt.added[:0]
	rt.sched.compactDue()
}

// Schedule returns the live instances in schedule order. O(instances).
func (rt *Runtime) Schedule() []*Instance {
	var out []*Instance
	rt.sched.each(func(inst *Instance) {
		if inst.state == instCreated && !inst.detached {
			out = append(out, inst)
		}
	})
	return out
}

// group is the instances of one script in attach order, with destroyed
// ones dropped once they are half of it (amortised O(1) a destroy).
type group struct {
	insts []*Instance
	dead  int
}

func (g *group) drop() {
	g.dead++
	if 2*g.dead >= len(g.insts) {
		g.insts = slices.DeleteFunc(g.insts, func(inst *Instance) bool { return inst.state == instDestroyed })
		g.dead = 0
	}
}

// ScriptInstances returns the live instances of s in schedule order (for
// one script that is attach order). O(its instances), whatever the size of
// the world.
func (rt *Runtime) ScriptInstances(s Script) []*Instance {
	g := rt.byScript[s]
	if g == nil {
		return nil
	}
	out := make([]*Instance, 0, len(g.insts)-g.dead)
	for _, inst := range g.insts {
		if inst.state == instCreated && !inst.detached {
			out = append(out, inst)
		}
	}
	return out
}

// ScriptChanged tells the runtime that s changed (a hot reload): the
// priority of its instances is read again and they move in the schedule
// (ties keep attach order), and their event subscriptions follow the
// script's current EventNames. Call it between frames. O(the script's
// instances) when the priority is unchanged; a new priority puts each
// instance (and its observers) in its place among those of that priority
// at a cost bounded by a chunk of the lane, whatever the lane's length.
func (rt *Runtime) ScriptChanged(s Script) error {
	if rt.stepping {
		return fmt.Errorf("script changed: %w", ErrStepping)
	}
	g := rt.byScript[s]
	if g == nil {
		return nil
	}
	prio := s.Priority()
	handler, _ := s.(EventHandler)
	var insts []*Instance
	moved := false
	for _, inst := range g.insts {
		if inst.state != instCreated {
			continue
		}
		insts = append(insts, inst)
		inst.handler = handler
		if inst.priority != prio {
			moved = true
			rt.sched.remove(inst)
			inst.priority = prio
		}
	}
	if moved {
		var back []*Instance
		for _, inst := range insts {
			if !inst.detached {
				back = append(back, inst)
			}
		}
		rt.sched.addSorted(prio, back)
		rt.sched.compactDue()
	}
	rt.events.resubscribe(insts, moved)
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

// Close shuts the runtime down: every remaining instance gets
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
	rt.sched.each(func(inst *Instance) {
		if inst.state == instCreated {
			rt.destroy(inst)
		}
	})
	for len(rt.slots.dense) > 0 {
		h := rt.slots.dense[len(rt.slots.dense)-1]
		s := &rt.slots.slots[h.Index]
		if s.state == StateActive {
			s.setState(StateDying)
		}
		rt.reap(h)
	}
	rt.sched = ordered[*Instance]{}
	rt.added = nil
	for _, fn := range rt.onClose {
		fn()
	}
	return nil
}
