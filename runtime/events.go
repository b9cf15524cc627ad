package runtime

import (
	"fmt"
	"slices"
)

// Event is what an observer sees of one dispatch (SPEC 3.7). It is reused
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
	mask    int
	once    bool
	removed bool
	list    *observable
}

// Remove unsubscribes the observer. During a dispatch it is skipped at once
// and removed physically later (after the dispatch outside a frame, at the
// frame's flush inside one). Removing twice does nothing.
func (o *Observer) Remove() {
	if o.removed {
		return
	}
	o.removed = true
	o.list.events.markRemoved(o.list)
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

// observable is the ordered observer list of one event name.
type observable struct {
	events *Events
	list   []*Observer
	// dispatching counts the dispatches of this list under way; while it
	// is non-zero the list is copied before it is changed, so running
	// dispatches keep iterating their own snapshot.
	dispatching int
	dirty       bool
}

func (ob *observable) mutable() []*Observer {
	if ob.dispatching > 0 {
		ob.list = slices.Clone(ob.list)
	}
	return ob.list
}

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
		ob = &observable{events: es}
		es.byName[name] = ob
	}
	return ob
}

// Observe adds a Go observer of the event name: appended to the list, or in
// front with opts.First. fn's result becomes the next observer's Event.Last.
// Observers added during a dispatch are first called by the next dispatch.
func (es *Events) Observe(name string, fn func(ev *Event) any, opts ObserveOptions) *Observer {
	ob := es.get(name)
	mask := opts.Mask
	if mask == 0 {
		mask = -1
	}
	o := &Observer{fn: fn, mask: mask, once: opts.Once, list: ob}
	list := ob.mutable()
	if opts.First {
		ob.list = slices.Insert(list, 0, o)
	} else {
		ob.list = append(list, o)
	}
	return o
}

// Observers returns how many observers of name are subscribed and not
// marked for removal.
func (es *Events) Observers(name string) int {
	n := 0
	if ob := es.byName[name]; ob != nil {
		for _, o := range ob.list {
			if !o.removed {
				n++
			}
		}
	}
	return n
}

// Notify dispatches an event to every observer of name whose mask has a
// bit in common with mask (-1 reaches all), synchronously and in list
// order. It returns true when the dispatch ran to the end (also when nobody
// listens) and false when an observer stopped it. A dispatch nested deeper
// than the runtime's limit returns an error wrapping ErrEventDepth and
// calls nobody. data must be plain data (see Plain); Notify copies it.
func (es *Events) Notify(name string, data any, mask int) (bool, error) {
	p, err := Plain(data)
	if err != nil {
		return false, fmt.Errorf("event %q: %w", name, err)
	}
	return es.dispatch(name, p, mask, Handle{})
}

// NotifyEntity is Notify restricted to the script instances of entity h:
// Go observers and other entities' instances are not called.
func (es *Events) NotifyEntity(h Handle, name string, data any, mask int) (bool, error) {
	p, err := Plain(data)
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
// to that entity's instances.
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
	for _, o := range ob.list {
		if o.removed || o.mask&mask == 0 {
			continue
		}
		var result any
		switch {
		case o.inst != nil:
			inst := o.inst
			if !inst.runnable() || (!target.IsZero() && inst.entity != target) {
				continue
			}
			r, err := callHandler(inst, ev)
			if err != nil {
				inst.fault("events."+name, err)
			}
			result = r
		case !target.IsZero():
			continue
		default:
			result = o.fn(ev)
			if o.once {
				o.Remove()
			}
		}
		ev.Last = result
		if ev.stopped {
			break
		}
	}
	return !ev.stopped, nil
}

// endDispatch ends a dispatch of ob: ev goes back to the free list, and
// outside a frame the outermost dispatch removes what was marked.
func (es *Events) endDispatch(ob *observable, ev *Event) {
	es.ev = append(es.ev, ev)
	ob.dispatching--
	es.depth--
	if es.depth == 0 && !es.rt.stepping {
		es.sweep()
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

func (es *Events) markRemoved(ob *observable) {
	if es.depth == 0 && !es.rt.stepping {
		ob.dirty = true
		es.dirty = append(es.dirty, ob)
		es.sweep()
		return
	}
	if !ob.dirty {
		ob.dirty = true
		es.dirty = append(es.dirty, ob)
	}
}

// sweep physically removes every observer marked for removal (flush step 5,
// or the end of a dispatch outside a frame).
func (es *Events) sweep() {
	for _, ob := range es.dirty {
		list := ob.mutable()
		ob.list = slices.DeleteFunc(list, func(o *Observer) bool { return o.removed })
		ob.dirty = false
	}
	clear(es.dirty)
	es.dirty = es.dirty[:0]
}

// subscribe adds the instance as an observer of each of its script's
// events, keeping script observers in schedule order among themselves.
func (es *Events) subscribe(inst *Instance) {
	for _, name := range inst.handler.EventNames() {
		ob := es.get(name)
		o := &Observer{inst: inst, mask: -1, list: ob}
		list := ob.mutable()
		at := len(list)
		for i := len(list) - 1; i >= 0; i-- {
			if p := list[i].inst; p != nil {
				if !inst.before(p) {
					break
				}
				at = i
			}
		}
		ob.list = slices.Insert(list, at, o)
		inst.observers = append(inst.observers, o)
	}
}

// resort restores schedule order among the script observers of every
// event after priorities changed; Go observers keep their places.
func (es *Events) resort() {
	for _, ob := range es.byName {
		var at []int
		var insts []*Observer
		for i, o := range ob.list {
			if o.inst != nil {
				at = append(at, i)
				insts = append(insts, o)
			}
		}
		if slices.IsSortedFunc(insts, compareObservers) {
			continue
		}
		slices.SortStableFunc(insts, compareObservers)
		list := ob.mutable()
		for i, pos := range at {
			list[pos] = insts[i]
		}
	}
}

func compareObservers(a, b *Observer) int { return compareInstances(a.inst, b.inst) }

func (inst *Instance) unsubscribe() {
	for _, o := range inst.observers {
		o.Remove()
	}
	inst.observers = inst.observers[:0]
}
