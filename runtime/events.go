package runtime

import (
	"fmt"
	"math"
	"slices"
)

// Event is what an observer sees of one dispatch. It is reused
// for the whole dispatch: read it during the call, do not keep it.
type Event struct {
	// Name is the event's name.
	Name string
	// Data is the event's data, plain data (see Plain).
	Data any
	// Mask is the notify mask.
	Mask int
	// Last is the return value of the observer called just before this
	// one in this dispatch; for the first one, Data.
	Last any

	stopped bool
}

// Stop ends the dispatch: later observers are not called and Notify returns
// false.
func (e *Event) Stop() { e.stopped = true }

// Stopped reports whether an observer called Stop.
func (e *Event) Stopped() bool { return e.stopped }

// Observer is one entry of an event's observer list.
type Observer struct {
	fn      func(*Event) any
	inst    *Instance
	key     uint64
	mask    int
	once    bool
	removed bool
	list    *observable
	pos     pos[*Observer]
	// next links the observers of one instance.
	next *Observer
}

func (o *Observer) orderKey() uint64          { return o.key }
func (o *Observer) position() *pos[*Observer] { return &o.pos }

// Remove unsubscribes the observer: it is skipped at once, also by a
// dispatch under way, and its slot is reclaimed later (amortised O(1)).
// Removing twice does nothing.
func (o *Observer) Remove() {
	if o.removed {
		return
	}
	o.removed = true
	ob := o.list
	ob.live--
	if ob.order.remove(o) {
		ob.events.reclaim(ob)
	}
}

// ObserveOptions configures a Go observer.
type ObserveOptions struct {
	// Mask selects the notifications the observer gets: it is called when
	// Mask & notifyMask != 0. The default (zero) value means -1: all bits.
	Mask int
	// Once removes the observer after its first call. The default is false.
	Once bool
	// First inserts the observer in front of the list instead of at its
	// end. The default is false.
	First bool
}

// observable is the ordered observer list of one event name: lanes by
// priority, each in key order (see ordered). Script observers sit in
// their instance's priority lane with key 2*seq, so they run in schedule
// order; a Go observer added with First sits in a lane before every
// other, newest first; any other Go observer sits in the priority-0 lane
// as if it were a script instance attached when it was added (key
// 2*seq+1: after the instances attached before it).
type observable struct {
	events *Events
	name   string
	order  ordered[*Observer]
	// pending holds the observers added while a dispatch of this list is
	// under way: they join the list when the last such dispatch ends, so
	// running dispatches keep iterating what they started with.
	pending     []*Observer
	dispatching int
	live        int
	dirty       bool
}

// firstLane is the priority of the lane of Go observers added with First.
const firstLane = math.MinInt

// DefaultMaxEventDepth is the nesting limit of dispatches when
// Options.MaxEventDepth is zero.
const DefaultMaxEventDepth = 16

// Events holds one observable per event name. It belongs to a runtime and
// is driven by its goroutine.
type Events struct {
	rt       *Runtime
	byName   map[string]*observable
	depth    int
	maxDepth int
	dirty    []*observable
	ev       []*Event
	firsts   uint64
}

func newEvents(rt *Runtime, maxDepth int) *Events {
	if maxDepth <= 0 {
		maxDepth = DefaultMaxEventDepth
	}
	return &Events{rt: rt, byName: make(map[string]*observable), maxDepth: maxDepth}
}

func (es *Events) get(name string) *observable {
	ob := es.byName[name]
	if ob == nil {
		ob = &observable{events: es, name: name}
		es.byName[name] = ob
	}
	return ob
}

// Observe adds a Go observer of the event name: at the end of the list, or
// in front with opts.First. At the end means after every observer there is
// now; a script instance attached later with a priority below 0 is still
// called before it (script observers keep schedule order, and a Go
// observer counts as priority 0). fn's result becomes the next observer's
// Event.Last. Observers added during a dispatch of name are first called
// by the next one. O(1) amortised (O(First observers) with First).
func (es *Events) Observe(name string, fn func(ev *Event) any, opts ObserveOptions) *Observer {
	ob := es.get(name)
	mask := opts.Mask
	if mask == 0 {
		mask = -1
	}
	o := &Observer{fn: fn, mask: mask, once: opts.Once, list: ob, key: 2*es.rt.seq + 1}
	prio := 0
	if opts.First {
		es.firsts++
		prio, o.key = firstLane, ^es.firsts
	}
	ob.add(prio, o)
	return o
}

// add subscribes o in the lane of prio, or holds it back while a dispatch
// of the list is under way.
func (ob *observable) add(prio int, o *Observer) {
	ob.live++
	if ob.dispatching > 0 {
		ob.pending = append(ob.pending, o)
		return
	}
	ob.order.add(prio, o)
}

// prio returns the lane o belongs in.
func (o *Observer) prio() int {
	switch {
	case o.inst != nil:
		return o.inst.priority
	case o.key > 1<<63:
		return firstLane
	}
	return 0
}

// Observers returns how many observers of name are subscribed and not
// marked for removal. O(1).
func (es *Events) Observers(name string) int {
	if ob := es.byName[name]; ob != nil {
		return ob.live
	}
	return 0
}

// Notify dispatches an event to every observer of name whose mask has a
// bit in common with mask (-1 reaches all), synchronously and in list
// order. It returns true when the dispatch ran to the end (also when nobody
// listens) and false when an observer stopped it. A dispatch nested deeper
// than the runtime's limit returns an error wrapping ErrEventDepth and
// calls nobody. data must be plain data (see Plain); Notify copies it.
func (es *Events) Notify(name string, data any, mask int) (bool, error) {
	p, err := PlainAt("data", data)
	if err != nil {
		return false, fmt.Errorf("event %q: %w", name, err)
	}
	return es.dispatch(name, p, mask, Handle{})
}

// NotifyEntity is Notify restricted to the script instances of entity h:
// Go observers and other entities' instances are not called.
func (es *Events) NotifyEntity(h Handle, name string, data any, mask int) (bool, error) {
	p, err := PlainAt("data", data)
	if err != nil {
		return false, fmt.Errorf("event %q: %w", name, err)
	}
	return es.dispatch(name, p, mask, h)
}

// NotifyPlain is Notify (or, with a non-zero target, NotifyEntity) for
// data that the caller guarantees is canonical plain data nobody else
// holds — a fresh result of Plain or of a Lua conversion — so that it is
// not copied again.
func (es *Events) NotifyPlain(target Handle, name string, data any, mask int) (bool, error) {
	return es.dispatch(name, data, mask, target)
}

// dispatch runs one notification of plain data. A non-zero target limits it
// to that entity's instances: then it costs in proportion to the entity's
// instances, not to the observers of name.
func (es *Events) dispatch(name string, data any, mask int, target Handle) (bool, error) {
	if es.depth >= es.maxDepth {
		return false, fmt.Errorf("event %q: %w (limit %d)", name, ErrEventDepth, es.maxDepth)
	}
	ob := es.byName[name]
	if ob == nil {
		return true, nil
	}
	es.depth++
	ob.dispatching++
	ev := es.event(name, data, mask)
	// Deferred, so that a Go observer's panic, recovered further up,
	// leaves the dispatch depth and the list's state right.
	defer es.endDispatch(ob, ev)
	if !target.IsZero() {
		es.sendTo(ob, target, ev)
		return !ev.stopped, nil
	}
	if at := es.walk(ob, ev, pos[*Observer]{}); at.ch != nil {
		// A Go-native handler panicked: go on after it, every call
		// guarded on its own.
		es.walk(ob, ev, at)
	}
	return !ev.stopped, nil
}

// walk calls ob's observers in list order until one stops the dispatch:
// all of them, or, after a panic, those after the place the observer
// that panicked had (its slot may be empty by then: a removal leaves a
// nil at once). The first walk guards all its calls with one deferred
// recover, so that a handler's call costs no defer of its own:
// a Go-native handler's panic faults its instance and ends the walk,
// which returns that place. The walk after a panic guards each call
// (callHandler), so the list is walked at most twice however many
// handlers panic. A Go observer's panic is never recovered.
func (es *Events) walk(ob *observable, ev *Event, after pos[*Observer]) (panicked pos[*Observer]) {
	guarded := after.ch != nil
	var at pos[*Observer]
	var inst *Instance
	if !guarded {
		defer func() {
			if inst == nil {
				return
			}
			if v := recover(); v != nil {
				inst.fault("events."+ev.Name, recovered(v))
				ev.Last = nil
				panicked = at
			}
		}()
	}
	for _, ln := range ob.order.lanes {
		for _, ch := range ln.chunks {
			first := 0
			if after.ch != nil {
				if ch != after.ch {
					continue
				}
				first, after = after.i+1, pos[*Observer]{}
			}
			for i := first; i < len(ch.items); i++ {
				o := ch.items[i]
				if o == nil || o.removed || o.mask&ev.Mask == 0 {
					continue
				}
				at, inst = pos[*Observer]{ch, i}, o.inst
				if inst == nil || guarded {
					es.call(o, ev)
				} else if inst.runnable() {
					r, err := inst.handler.HandleEvent(inst, ev)
					if err != nil {
						inst.fault("events."+ev.Name, err)
					}
					ev.Last = r
				}
				if ev.stopped {
					return pos[*Observer]{}
				}
			}
		}
	}
	return pos[*Observer]{}
}

// sendTo calls the observers of ob that are instances of target, in
// schedule order.
func (es *Events) sendTo(ob *observable, target Handle, ev *Event) {
	s, err := es.rt.slots.get(target)
	if err != nil {
		return
	}
	var buf [8]*Observer
	found := buf[:0]
	// The entity's instances are in attach order; an insertion sort by
	// priority (stable) makes it schedule order.
	for _, inst := range s.ent.insts {
		for o := inst.obs; o != nil; o = o.next {
			if o.list != ob || o.removed || o.mask&ev.Mask == 0 {
				continue
			}
			found = append(found, o)
			for i := len(found) - 1; i > 0 && found[i].inst.priority < found[i-1].inst.priority; i-- {
				found[i], found[i-1] = found[i-1], found[i]
			}
		}
	}
	for _, o := range found {
		if o.removed {
			continue
		}
		if es.call(o, ev); ev.stopped {
			return
		}
	}
}

// call calls one observer, recovering a Go-native handler's panic; a
// script observer whose instance cannot run now is skipped.
func (es *Events) call(o *Observer, ev *Event) {
	var result any
	if inst := o.inst; inst != nil {
		if !inst.runnable() {
			return
		}
		r, err := callHandler(inst, ev)
		if err != nil {
			inst.fault("events."+ev.Name, err)
		}
		result = r
	} else {
		result = o.fn(ev)
		if o.once {
			o.Remove()
		}
	}
	ev.Last = result
}

// endDispatch ends a dispatch of ob: ev goes back to the free list; the
// last dispatch of ob lets the observers added meanwhile join; outside a
// frame, the outermost dispatch reclaims removed observers' slots and
// settles the kills and detaches its handlers made.
func (es *Events) endDispatch(ob *observable, ev *Event) {
	es.ev = append(es.ev, ev)
	ob.dispatching--
	es.depth--
	if ob.dispatching == 0 && len(ob.pending) > 0 {
		for _, o := range ob.pending {
			if !o.removed {
				ob.order.add(o.prio(), o)
			}
		}
		clear(ob.pending)
		ob.pending = ob.pending[:0]
	}
	if es.depth == 0 && !es.rt.stepping {
		es.sweep()
		es.rt.settleDeferred()
	}
}

// event returns a cleared Event from the free list.
func (es *Events) event(name string, data any, mask int) *Event {
	var ev *Event
	if n := len(es.ev); n > 0 {
		ev = es.ev[n-1]
		es.ev = es.ev[:n-1]
	} else {
		ev = new(Event)
	}
	*ev = Event{Name: name, Data: data, Mask: mask, Last: data}
	return ev
}

// reclaim compacts ob's lanes that are at least half tombstones: at once
// when no dispatch runs and no frame, otherwise at the end of the
// outermost dispatch or at the frame's flush.
func (es *Events) reclaim(ob *observable) {
	if es.depth == 0 && !es.rt.stepping {
		ob.order.compactDue()
		return
	}
	if !ob.dirty {
		ob.dirty = true
		es.dirty = append(es.dirty, ob)
	}
}

// sweep reclaims the slots of removed observers in the lists that had
// removals during a dispatch or a frame (flush step 5, or the end of a
// dispatch outside a frame). Lanes with fewer tombstones than live
// observers keep them until more are removed.
func (es *Events) sweep() {
	for _, ob := range es.dirty {
		if ob.dispatching == 0 {
			ob.order.compactDue()
		}
		ob.dirty = false
	}
	clear(es.dirty)
	es.dirty = es.dirty[:0]
}

// subscribe adds the instance as an observer of each of its script's
// events, in schedule order among script observers. O(events) amortised.
func (es *Events) subscribe(inst *Instance) {
	for _, name := range inst.handler.EventNames() {
		ob := es.get(name)
		ob.add(inst.priority, inst.observe(ob))
	}
}

// observe makes (and links to inst) a new observer of ob for inst.
func (inst *Instance) observe(ob *observable) *Observer {
	o := &Observer{inst: inst, mask: -1, list: ob, key: 2 * inst.seq, next: inst.obs}
	inst.obs = o
	return o
}

func (inst *Instance) unsubscribe() {
	for o := inst.obs; o != nil; o = o.next {
		o.Remove()
	}
	inst.obs = nil
}

// resubscribe makes the subscriptions of a script's instances follow its
// current EventNames and priority (a hot reload), keeping the observers
// that did not change. insts are live instances in attach order, with
// their new priority set; moved tells whether the priority changed. O(the
// instances, plus one merge per event when the priority changed).
func (es *Events) resubscribe(insts []*Instance, moved bool) {
	batches := map[*observable][]*Observer{}
	for _, inst := range insts {
		var names []string
		if inst.handler != nil {
			names = inst.handler.EventNames()
		}
		var keep *Observer
		for o := inst.obs; o != nil; {
			next := o.next
			if moved || !slices.Contains(names, o.list.name) {
				o.Remove()
			} else {
				o.next, keep = keep, o
			}
			o = next
		}
		inst.obs = keep
		for _, name := range names {
			ob := es.get(name)
			if !inst.observes(ob) {
				batches[ob] = append(batches[ob], inst.observe(ob))
			}
		}
	}
	for ob, batch := range batches {
		prio := batch[0].inst.priority
		ob.live += len(batch)
		if ob.dispatching > 0 {
			ob.pending = append(ob.pending, batch...)
			continue
		}
		ob.order.addSorted(prio, batch)
	}
}

// observes reports whether inst has a live observer in ob.
func (inst *Instance) observes(ob *observable) bool {
	for o := inst.obs; o != nil; o = o.next {
		if o.list == ob && !o.removed {
			return true
		}
	}
	return false
}
