package runtime

import (
	"errors"
	"fmt"
)

// Script is the runtime's view of a script: a name, a priority, and any of
// the optional callbacks Creator, Updater, Destroyer and EventHandler. Lua
// scripts (package luabind) and Go-native scripts implement the same
// interfaces and share one schedule.
//
// Priority is read when the script is attached and again by
// [Runtime.ScriptChanged], so a script may change it (a hot reload does).
type Script interface {
	// Name is the script's name, used in reports and by DetachScript.
	Name() string
	// Priority orders the schedule: lower runs earlier; ties run in
	// attach order.
	Priority() int
}

// Creator is a Script with an onCreate callback. Create runs once, when
// the script is attached (also to a Pending entity). An error faults the
// instance, which then gets no callback at all.
type Creator interface {
	Create(inst *Instance) error
}

// Updater is a Script with an onUpdate callback. Update runs once a frame,
// in schedule order, for every instance whose entity is Active and which is
// neither detached nor faulted. An error faults the instance.
type Updater interface {
	Update(inst *Instance, dt float64) error
}

// RunUpdater is an Updater that updates a run of instances in one call:
// the frame hands it the instances of the schedule that follow one
// another and share it as their Updater, and UpdateRun updates each one
// Run.Next gives, in order, as Update would, reporting a failure through
// Run.Fail. What a run costs the frame is then paid once a run, not once
// an instance. The schedule, the instances skipped and the faults are
// those of Update called for each. Runs are told apart by comparing
// updaters: a RunUpdater's dynamic type must be comparable (a pointer
// is).
type RunUpdater interface {
	Updater
	UpdateRun(r *Run, dt float64)
}

// Destroyer is a Script with an onDestroy callback. Destroy runs once, when
// the instance is detached, its entity is settled, or the runtime closes;
// also for a faulted instance, since settlement is never skipped. An error
// is reported; the instance is destroyed all the same.
type Destroyer interface {
	Destroy(inst *Instance) error
}

// EventHandler is a Script whose instances observe events. EventNames is
// read at create and by [Runtime.ScriptChanged]; HandleEvent is called for
// each dispatch of those events to an instance whose entity is Active and
// which is not faulted. Its result becomes the next observer's Event.Last;
// an error faults the instance.
type EventHandler interface {
	EventNames() []string
	HandleEvent(inst *Instance, ev *Event) (any, error)
}

// instState is an instance's own state machine: pending -> created ->
// destroyed.
type instState uint8

const (
	instPending instState = iota
	instCreated
	instDestroyed
)

var instStateNames = [...]string{"pending", "created", "destroyed"}

func (s instState) String() string { return instStateNames[s] }

// Instance is one script attached to one entity, with its own state.
type Instance struct {
	// Data belongs to the script's implementation (luabind keeps the Lua
	// self table here). The runtime never reads it.
	Data any

	// The fields a frame reads for every instance come first and fill one
	// cache line (the struct is 128 bytes, a size class whose objects are
	// 128-aligned), so the update loop touches one line per instance.
	updater      Updater
	rt           *Runtime
	entity       Handle
	state        instState
	faulted      bool
	createFailed bool
	detached     bool
	// active mirrors whether the entity is Active (kept by slot.setState).
	active bool
	// runs marks an updater that is a RunUpdater.
	runs     bool
	priority int

	script  Script
	seq     uint64
	handler EventHandler
	// obs is the first of the instance's event observers, linked by
	// Observer.next.
	obs   *Observer
	sched pos[*Instance]
}

func (inst *Instance) orderKey() uint64          { return inst.seq }
func (inst *Instance) position() *pos[*Instance] { return &inst.sched }

// Script returns the instance's script.
func (inst *Instance) Script() Script { return inst.script }

// Entity returns the instance's entity.
func (inst *Instance) Entity() Handle { return inst.entity }

// Runtime returns the runtime the instance lives in.
func (inst *Instance) Runtime() *Runtime { return inst.rt }

// Seq returns the instance's attach sequence number: its place in the
// runtime's attach order, which breaks priority ties.
func (inst *Instance) Seq() uint64 { return inst.seq }

// Faulted reports whether a callback of the instance failed.
func (inst *Instance) Faulted() bool { return inst.faulted }

// CreateFailed reports whether the instance's onCreate failed.
func (inst *Instance) CreateFailed() bool { return inst.createFailed }

// Detached reports whether the instance was detached (or destroyed).
func (inst *Instance) Detached() bool { return inst.detached || inst.state == instDestroyed }

// Live reports whether the instance was created and not yet destroyed.
func (inst *Instance) Live() bool { return inst.state == instCreated }

// String returns "script@entity(I:G)".
func (inst *Instance) String() string { return fmt.Sprintf("%s@%s", inst.script.Name(), inst.entity) }

// before reports whether a runs before b in schedule order.
func (a *Instance) before(b *Instance) bool {
	if a.priority != b.priority {
		return a.priority < b.priority
	}
	return a.seq < b.seq
}

func (inst *Instance) misuse(call string) error {
	return fmt.Errorf("%w: %s of %s in state %s", ErrInstanceState, call, inst, inst.state)
}

// create runs the onCreate callback. It is a hard error unless the instance
// is pending.
func (inst *Instance) create() error {
	if inst.state != instPending {
		return inst.misuse("create")
	}
	inst.state = instCreated
	if c, ok := inst.script.(Creator); ok {
		if err := callCreate(c, inst); err != nil {
			inst.faulted = true
			inst.createFailed = true
			inst.rt.report(inst, "onCreate", err)
		}
	}
	return nil
}

// setUpdater sets what updates the instance: s, when it is an Updater.
func (inst *Instance) setUpdater(s Script) {
	inst.updater, _ = s.(Updater)
	_, inst.runs = s.(RunUpdater)
}

// update runs the onUpdate callback. It is a hard error unless the instance
// is created.
func (inst *Instance) update(dt float64) error {
	if inst.state != instCreated {
		return inst.misuse("update")
	}
	if err := inst.updater.Update(inst, dt); err != nil {
		inst.fault("onUpdate", err)
	}
	return nil
}

// Fault faults inst from outside its callbacks (a host does, when its
// memory ceiling is near) and reports err once as a failure of callback:
// inst gets no further update or event; its onDestroy still runs. It does
// nothing for an instance already faulted or not live.
func (rt *Runtime) Fault(inst *Instance, callback string, err error) {
	if inst.faulted || inst.state != instCreated {
		return
	}
	inst.fault(callback, err)
}

// fault faults the instance and reports err as a failure of callback. A
// callback stopped because its frame's context was done is neither: it is
// only noted as the frame's stopped callback.
func (inst *Instance) fault(callback string, err error) {
	if inst.rt.interrupted() && errors.Is(err, ErrInterrupted) {
		inst.rt.frameCtl.stopped = inst
		return
	}
	inst.faulted = true
	inst.rt.report(inst, callback, err)
}

// A panic in a Go-native callback (or in Go code it calls) is recovered
// where the runtime calls the callback, and becomes that callback's
// error: the instance is faulted and the frame goes on. Lua callbacks
// never panic: gopher-lua's PCall recovers.

func callCreate(c Creator, inst *Instance) (err error) {
	defer func() {
		if v := recover(); v != nil {
			err = recovered(v)
		}
	}()
	return c.Create(inst)
}

func callDestroy(d Destroyer, inst *Instance) (err error) {
	defer func() {
		if v := recover(); v != nil {
			err = recovered(v)
		}
	}()
	return d.Destroy(inst)
}

func callHandler(inst *Instance, ev *Event) (result any, err error) {
	defer func() {
		if v := recover(); v != nil {
			err = recovered(v)
		}
	}()
	return inst.handler.HandleEvent(inst, ev)
}

// destroy runs the onDestroy callback (skipped when onCreate failed) and
// unsubscribes the instance's observers. It is a hard error unless the
// instance is created.
func (inst *Instance) destroy() error {
	if inst.state != instCreated {
		return inst.misuse("destroy")
	}
	inst.state = instDestroyed
	inst.detached = true
	inst.unsubscribe()
	if d, ok := inst.script.(Destroyer); ok && !inst.createFailed {
		if err := callDestroy(d, inst); err != nil {
			inst.rt.report(inst, "onDestroy", err)
		}
	}
	return nil
}

// runnable reports whether the instance gets updates and events now.
func (inst *Instance) runnable() bool {
	return inst.state == instCreated && !inst.faulted && !inst.detached && inst.active
}

// Saver is a Go-native Script whose instances can be saved in a snapshot
// and handed off to another runtime, as Lua instances are. Without it, a
// snapshot or an export of a world holding an instance of the script is
// refused with an error wrapping ErrNotSaveable (or leaves the instance
// out, when the caller asks for that).
//
// The two methods are each other's inverse over plain data: what
// SaveData returns, LoadData gets back after a trip through the snapshot
// document, in its canonical form (see Plain: a struct comes back as a
// *Table of its fields, an int as a float64). Both run between frames, on
// the goroutine that drives the world, and must not change the world.
type Saver interface {
	Script
	// SaveData returns the state an instance keeps in data (its
	// Instance.Data) as plain data. An error refuses the snapshot or
	// export; the world is left as it was.
	SaveData(data any) (any, error)
	// LoadData returns the Instance.Data of an instance restored or
	// imported from saved, what SaveData returned. An error refuses the
	// restore or import before anything changes.
	LoadData(saved any) (any, error)
}
