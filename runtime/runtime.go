package runtime

import (
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"slices"
	"unicode/utf8"

	"github.com/luahost/luahost/pool"
)

// Options configures a Runtime. The zero value works.
type Options struct {
	// Seed seeds everything random in the runtime's scripts (Lua's
	// math.random). The default (zero) value is seed 0.
	Seed int64
	// OnError receives every script error, once, as a *ScriptError. The
	// default (nil) value logs the error through Logger when that is set
	// (see Slog), else writes it to os.Stderr.
	OnError func(err error)
	// Logger, when set, is where the runtime's script errors are logged
	// (unless OnError is set), with script, entity and frame as
	// attributes; a luabind Host on the runtime logs through it too
	// unless given a logger of its own. The default (nil) value logs
	// nothing through slog.
	Logger *slog.Logger
	// PoolLimit is the most idle entity payloads kept for reuse. The
	// default (zero) value is 1024; a negative value turns pooling off.
	PoolLimit int
	// MaxEventDepth limits how deeply dispatches may nest. The default
	// (zero) value is DefaultMaxEventDepth.
	MaxEventDepth int
	// MaxEntityInstances limits how many live instances one entity may
	// hold: an Attach past it fails with ErrTooManyInstances, so that a
	// scene or a script cannot pile millions of instances on one entity.
	// The default (zero) value is DefaultMaxEntityInstances.
	MaxEntityInstances int
}

// DefaultMaxEntityInstances is the most live instances one entity holds
// when Options.MaxEntityInstances is zero: far more than any design uses,
// and small enough that a world reaching it stays well within memory.
const DefaultMaxEntityInstances = 1 << 20

// entity is the pooled payload of a slot.
type entity struct {
	name      string
	transform Transform
	// insts is the entity's instances in attach order, destroyed ones
	// included until they are half of it (deadInsts counts them), so that
	// taking one off is amortised O(1). Its first array is one, so that
	// an entity of one script allocates no list.
	insts     []*Instance
	one       [1]*Instance
	deadInsts int
	// nameAt is the entity's index in its name's list.
	nameAt int
	// tally counts the entity until it is reaped (CountEntity).
	tally *Tally
	// writeAt is, during a frame, 1 + the place of the entity's write
	// cache in the runtime's writes; 0 while it wrote nothing.
	writeAt   int
	cancelled bool
	settling  bool
}

func newEntity() *entity {
	e := &entity{}
	e.insts = e.one[:0]
	return e
}

func resetEntity(e *entity) {
	clear(e.insts)
	*e = entity{insts: e.insts[:0]}
}

// Runtime owns the entities, their script instances and the frame loop. A
// Runtime is driven by one goroutine: none of its methods is safe for
// concurrent use, and callbacks run on the goroutine that calls Step,
// Attach, Kill or Close. Separate Runtimes share nothing and may run in
// parallel.
type Runtime struct {
	opts       Options
	slots      slotMap
	payloads   *pool.Pool[entity]
	names      map[string]*nameList
	blackboard *Blackboard
	events     *Events
	// tags, spatial and queryHits back the queries (tags.go, spatial.go,
	// query.go).
	tags      tagIndex
	spatial   spatialHash
	queryHits []queryHit

	// sched is the schedule: instances by priority, then attach order.
	// Instances attached during a frame wait in added until its end.
	sched    ordered[*Instance]
	added    []*Instance
	byScript map[Script]*group
	seq      uint64
	// flushing is set while settleDeferred runs, so that a dispatch
	// inside an onDestroy does not start it again.
	flushing bool

	frame    uint64
	time     float64
	dt       float64
	stepping bool
	closed   bool

	detached []*Instance
	dying    []Handle
	spawned  []Handle
	writes   []pendingWrite

	errors int
	// spawns and kills count Spawn and Kill (Stats).
	spawns, kills uint64
	beforeStep    []func()
	frameStart    []func()
	afterStep     []func()
	onClose       []func()
	onReport      []func(error)
	instanceCnt   int

	// frameCtl is the state of a frame bounded by a context
	// (StepContext) and of the panics of embedder hooks (guard).
	frameCtl frameControl
	// run is the run of instances a RunUpdater updates now (frame.go).
	run Run
}

// New returns an empty runtime.
func New(opts Options) *Runtime {
	switch {
	case opts.OnError != nil:
	case opts.Logger != nil:
		opts.OnError = Slog(opts.Logger)
	default:
		opts.OnError = func(err error) { fmt.Fprintln(os.Stderr, err) }
	}
	limit := opts.PoolLimit
	if limit == 0 {
		limit = 1024
	}
	rt := &Runtime{
		opts:       opts,
		slots:      newSlotMap(),
		payloads:   pool.New(pool.Options[entity]{Limit: limit, New: newEntity, Reset: resetEntity}),
		names:      make(map[string]*nameList),
		byScript:   make(map[Script]*group),
		blackboard: newBlackboard(),
	}
	if rt.opts.MaxEntityInstances == 0 {
		rt.opts.MaxEntityInstances = DefaultMaxEntityInstances
	}
	rt.events = newEvents(rt, opts.MaxEventDepth)
	return rt
}

// Logger returns Options.Logger.
func (rt *Runtime) Logger() *slog.Logger { return rt.opts.Logger }

// Seed returns Options.Seed.
func (rt *Runtime) Seed() int64 { return rt.opts.Seed }

// Frame returns the current frame number: 0 before the first Step, then
// the number of the frame running or last run.
func (rt *Runtime) Frame() uint64 { return rt.frame }

// Time returns the simulated seconds: the sum of dt over the frames so far.
func (rt *Runtime) Time() float64 { return rt.time }

// DT returns the dt of the current (or last) frame; 0 before the first.
func (rt *Runtime) DT() float64 { return rt.dt }

// Stepping reports whether a frame is running.
func (rt *Runtime) Stepping() bool { return rt.stepping }

// Closed reports whether Close was called.
func (rt *Runtime) Closed() bool { return rt.closed }

// Blackboard returns the runtime's blackboard.
func (rt *Runtime) Blackboard() *Blackboard { return rt.blackboard }

// Events returns the runtime's event observables.
func (rt *Runtime) Events() *Events { return rt.events }

// Payloads returns the counters of the pool of entity payloads: how many
// payloads were made, how many spawns asked for one, and how many wait
// for reuse (Options.PoolLimit bounds those).
func (rt *Runtime) Payloads() pool.Stats { return rt.payloads.Stats() }

// Stats is a snapshot of a runtime's counters.
type Stats struct {
	Frames    uint64
	Entities  int
	Instances int
	Errors    int
	// Spawns and Kills count the entities spawned and killed (Kill
	// returning true) since the runtime was made.
	Spawns, Kills uint64
	// Overruns counts the frames cut short because their context was
	// done (StepContext).
	Overruns uint64
}

// Stats returns the runtime's counters: frames run, live entities, live
// script instances, script errors reported, spawns and kills.
func (rt *Runtime) Stats() Stats {
	return Stats{Frames: rt.frame, Entities: len(rt.slots.dense), Instances: rt.instanceCnt, Errors: rt.errors, Spawns: rt.spawns, Kills: rt.kills, Overruns: rt.frameCtl.overruns}
}

// BeforeStep registers fn to run at the start of every Step, before the
// frame number moves: between frames, on the driving goroutine. Hot reload
// swaps scripts there.
func (rt *Runtime) BeforeStep(fn func()) { rt.beforeStep = append(rt.beforeStep, fn) }

// FrameStart registers fn to run in every Step once the frame number and
// the time moved, before the first update: inside the frame, so that what
// fn dispatches sees the new frame and its kills wait for the flush.
// Broadcasts from other zones are delivered there.
func (rt *Runtime) FrameStart(fn func()) { rt.frameStart = append(rt.frameStart, fn) }

// AfterStep registers fn to run at the end of every Step, after the flush.
// Script output is flushed there.
func (rt *Runtime) AfterStep(fn func()) { rt.afterStep = append(rt.afterStep, fn) }

// OnClose registers fn to run at the end of Close, after every instance was
// destroyed.
func (rt *Runtime) OnClose(fn func()) { rt.onClose = append(rt.onClose, fn) }

// OnReport registers fn to receive every error the runtime reports (a
// callback's, or one handed to Report), after Options.OnError, on the
// driving goroutine. An inspector watches errors so.
func (rt *Runtime) OnReport(fn func(error)) { rt.onReport = append(rt.onReport, fn) }

// report hands a callback error to Options.OnError as a *ScriptError, with
// the instance's script, entity, callback and frame filled in.
func (rt *Runtime) report(inst *Instance, callback string, err error) {
	if rt.interrupted() && errors.Is(err, ErrInterrupted) {
		// Stopped because the frame's context is done (an onDestroy,
		// an onCreate): not the callback's fault, only noted.
		rt.frameCtl.stopped = inst
		return
	}
	se, ok := err.(*ScriptError)
	if !ok {
		se = &ScriptError{Message: err.Error(), Err: err}
	}
	if se.Script == "" {
		se.Script = inst.script.Name()
	}
	if se.Callback == "" {
		se.Callback = callback
	}
	se.Entity = inst.entity
	se.EntityName, _ = rt.Name(inst.entity)
	se.Frame = rt.frame
	rt.Report(se)
}

// Report hands an error that is not a callback's (a failed hot reload, for
// example) to Options.OnError and counts it. A panic of OnError (or of a
// function registered with OnReport) is recovered: inside a frame, Step
// returns it (wrapped in ErrPanic, with its Go stack) once the frame
// ended; outside one, it is written to standard error.
func (rt *Runtime) Report(err error) {
	rt.errors++
	rt.callReport("OnError", rt.opts.OnError, err)
	for _, fn := range rt.onReport {
		rt.callReport("OnReport", fn, err)
	}
}

// Discard is an OnError that drops errors, for benchmarks.
func Discard(error) {}

// Writer returns an OnError that writes each error on its own line to w.
func Writer(w io.Writer) func(error) {
	return func(err error) { fmt.Fprintln(w, err) }
}

// Spawn allocates a new Pending entity and returns its handle. A Pending
// entity may take scripts (their onCreate runs at attach) but gets no
// updates until it is Active: entities spawned during a frame become Active
// at the frame's flush; outside a frame, call Activate. After Close, Spawn
// returns the zero Handle. O(1), allocation-free once the payload pool is
// warm.
func (rt *Runtime) Spawn() Handle { return rt.SpawnAt(identity) }

// SpawnAt is Spawn with an initial placement: t is the new entity's
// committed transform at once, readable by the onCreate of the scripts
// attached to it, even during a frame.
func (rt *Runtime) SpawnAt(t Transform) Handle {
	if rt.closed {
		return Handle{}
	}
	e := rt.payloads.Get()
	e.transform = t
	h := rt.slots.alloc(e)
	rt.spawns++
	rt.spatial.place(h.Index, t.Position)
	rt.slots.slots[h.Index].state = StatePending
	if rt.stepping {
		rt.spawned = append(rt.spawned, h)
	}
	return h
}

// Activate moves a Pending entity to Active.
func (rt *Runtime) Activate(h Handle) error {
	s, err := rt.slots.get(h)
	if err != nil {
		return err
	}
	if s.ent.cancelled {
		return fmt.Errorf("activate %s: %w", h, &TransitionError{From: StateDead, To: StateActive})
	}
	if err := s.transition(StateActive); err != nil {
		return fmt.Errorf("activate %s: %w", h, err)
	}
	return nil
}

// State returns h's lifecycle state. A stale handle returns StateDead and
// ErrStaleHandle.
func (rt *Runtime) State(h Handle) (State, error) {
	s, err := rt.slots.get(h)
	if err != nil {
		return StateDead, err
	}
	return s.state, nil
}

// Alive reports whether h names an entity that has not been reaped.
func (rt *Runtime) Alive(h Handle) bool {
	_, err := rt.slots.get(h)
	return err == nil
}

// Entities returns the handles of every entity that has not been reaped,
// in no particular order.
func (rt *Runtime) Entities() []Handle { return slices.Clone(rt.slots.dense) }

// AppendEntities appends the handles Entities returns to dst and returns
// the extended slice: a caller that scans the world every frame reuses
// one buffer instead of allocating a slice of every handle.
func (rt *Runtime) AppendEntities(dst []Handle) []Handle { return append(dst, rt.slots.dense...) }

// Reserve makes room for n more entities, of which named have a name, so
// that spawning and naming a whole scene grows no table on the way: a
// loader that knows the scene's size calls it first. It changes nothing
// of the world; an n or named below one reserves nothing.
func (rt *Runtime) Reserve(n, named int) {
	if n > 0 {
		m := &rt.slots
		m.slots = slices.Grow(m.slots, n)
		m.dense = slices.Grow(m.dense, n)
		rt.spawned = slices.Grow(rt.spawned, n)
		rt.spatial.at = slices.Grow(rt.spatial.at, n)
	}
	if named > 0 && len(rt.names) == 0 {
		rt.names = make(map[string]*nameList, named)
	}
}

// SetName gives h a scene name, for Find. Names need not be unique; a
// name that is not valid UTF-8 is ErrBadName, and changes nothing.
// O(1) amortised.
func (rt *Runtime) SetName(h Handle, name string) error {
	s, err := rt.slots.get(h)
	if err != nil {
		return err
	}
	if !utf8.ValidString(name) {
		return ErrBadName
	}
	if s.ent.name != "" {
		rt.unname(s.ent)
	}
	s.ent.name = name
	if name != "" {
		l := rt.names[name]
		if l == nil {
			l = &nameList{}
			l.hs = l.one[:0]
			rt.names[name] = l
		}
		s.ent.nameAt = len(l.hs)
		l.hs = append(l.hs, h)
	}
	return nil
}

// nameList holds the entities of one name in naming order. An entity
// that loses the name leaves a zero Handle; the list is compacted once
// half of it is zero, so unnaming is amortised O(1). head is the index of
// the first non-zero entry. The first array of hs is one, so that a name
// of one entity, a scene's usual, allocates no list.
type nameList struct {
	hs   []Handle
	head int
	dead int
	one  [1]Handle
}

// unname takes e off its name's list. O(1) amortised.
func (rt *Runtime) unname(e *entity) {
	l := rt.names[e.name]
	l.hs[e.nameAt] = Handle{}
	l.dead++
	if l.dead == len(l.hs) {
		delete(rt.names, e.name)
		return
	}
	for l.hs[l.head].IsZero() {
		l.head++
	}
	if 2*l.dead < len(l.hs) {
		return
	}
	l.hs = slices.DeleteFunc(l.hs, Handle.IsZero)
	for i, h := range l.hs {
		rt.slots.slots[h.Index].ent.nameAt = i
	}
	l.head, l.dead = 0, 0
}

// Name returns h's scene name ("" when it has none).
func (rt *Runtime) Name(h Handle) (string, error) {
	s, err := rt.slots.get(h)
	if err != nil {
		return "", err
	}
	return s.ent.name, nil
}

// Find returns the earliest-named entity called name that has not been
// reaped (a Dying entity keeps its name until its settlement). O(1).
func (rt *Runtime) Find(name string) (Handle, bool) {
	l := rt.names[name]
	if l == nil {
		return Handle{}, false
	}
	return l.hs[l.head], true
}

// Kill judges h dead. An Active entity becomes Dying and is settled (every
// instance's onDestroy, in schedule order) and reaped at this frame's
// flush, or at once outside a frame. A Pending entity is cancelled the same
// way. Kill returns false, and changes nothing, when h was already Dying or
// cancelled: two killers in one frame are normal.
func (rt *Runtime) Kill(h Handle) (bool, error) {
	s, err := rt.slots.get(h)
	if err != nil {
		return false, err
	}
	switch {
	case s.state == StatePending && !s.ent.cancelled:
		s.ent.cancelled = true
	case s.state == StateActive:
		if err := s.transition(StateDying); err != nil {
			return false, err
		}
	default:
		return false, nil
	}
	rt.kills++
	if rt.deferring() {
		rt.dying = append(rt.dying, h)
	} else {
		rt.settle(h)
	}
	return true, nil
}

// deferring reports whether kills and detaches wait: during a frame (for
// its flush) and during a dispatch (for its end).
func (rt *Runtime) deferring() bool { return rt.stepping || rt.events.depth > 0 || rt.flushing }

// Revive returns a Dying entity to Active before its settlement starts. It
// returns false, and changes nothing, when h is not Dying.
func (rt *Runtime) Revive(h Handle) (bool, error) {
	s, err := rt.slots.get(h)
	if err != nil {
		return false, err
	}
	if s.state != StateDying || s.ent.settling {
		return false, nil
	}
	if err := s.transition(StateActive); err != nil {
		return false, err
	}
	rt.dying = slices.DeleteFunc(rt.dying, func(x Handle) bool { return x == h })
	return true, nil
}

// settle runs the onDestroy of every remaining instance of h in schedule
// order, then reaps it: Dying -> Dead (or Pending -> Dead for a cancelled
// entity) -> None, payload back to the pool, generation bumped.
func (rt *Runtime) settle(h Handle) {
	s, err := rt.slots.get(h)
	if err != nil || s.ent.settling {
		return
	}
	e := s.ent
	e.settling = true
	// An onDestroy cannot attach to a dying entity, only destroy more of
	// its instances, so sorting once gives the order. O(n log n).
	var buf [8]*Instance
	live := buf[:0]
	for _, inst := range e.insts {
		if inst.state == instCreated {
			live = append(live, inst)
		}
	}
	slices.SortFunc(live, func(a, b *Instance) int {
		switch {
		case a.before(b):
			return -1
		case b.before(a):
			return 1
		}
		return 0
	})
	for _, inst := range live {
		if inst.state == instCreated {
			rt.destroy(inst)
		}
	}
	rt.reap(h)
}

func (rt *Runtime) reap(h Handle) {
	s := &rt.slots.slots[h.Index]
	// Both Pending -> Dead (cancel) and Dying -> Dead (reap) are in the
	// table; anything else would be a bug in the runtime.
	if err := s.transition(StateDead); err != nil {
		panic(err)
	}
	e := s.ent
	if e.name != "" {
		rt.unname(e)
	}
	rt.tags.untagAll(h.Index)
	rt.spatial.remove(h.Index)
	if e.tally != nil {
		e.tally.live--
	}
	rt.slots.release(h)
	rt.payloads.Put(e)
}

// Tally counts live entities for an embedder: those given to CountEntity
// with it and not yet reaped. A host counts the entities each script
// spawns, so that a script spawning without end can be told apart from
// its bystanders when memory runs short.
type Tally struct{ live int }

// Live returns the number of entities counted and not yet reaped.
func (t *Tally) Live() int { return t.live }

// CountEntity counts entity h in t until h is reaped; an entity counted
// in another tally moves to t. A stale handle is an error. O(1).
func (rt *Runtime) CountEntity(h Handle, t *Tally) error {
	s, err := rt.slots.get(h)
	if err != nil {
		return err
	}
	if e := s.ent; e.tally != t {
		if e.tally != nil {
			e.tally.live--
		}
		e.tally = t
		t.live++
	}
	return nil
}

// Attach attaches script s to entity h, making a new instance whose Data is
// data, and runs its onCreate at once. The instance joins the schedule at
// once outside a frame, and for the next frame during one. An onCreate that
// fails is reported and faults the instance; Attach still returns it. Attach
// fails only for a stale handle, an entity that is dying or cancelled or
// already holds Options.MaxEntityInstances instances, or a closed runtime.
func (rt *Runtime) Attach(h Handle, s Script, data any) (*Instance, error) {
	if rt.closed {
		return nil, ErrClosed
	}
	sl, err := rt.slots.get(h)
	if err != nil {
		return nil, err
	}
	if sl.state == StateDying || sl.ent.cancelled {
		return nil, fmt.Errorf("attach %s to %s: %w: it is %s", s.Name(), h, ErrNotAttachable, sl.state)
	}
	if live := len(sl.ent.insts) - sl.ent.deadInsts; live >= rt.opts.MaxEntityInstances {
		return nil, fmt.Errorf("attach %s to %s: %w: it holds %d, the most", s.Name(), h, ErrTooManyInstances, live)
	}
	rt.seq++
	inst := &Instance{Data: data, rt: rt, script: s, entity: h, seq: rt.seq, priority: s.Priority(), active: sl.state == StateActive}
	inst.setUpdater(s)
	inst.handler, _ = s.(EventHandler)
	sl.ent.insts = append(sl.ent.insts, inst)
	rt.instanceCnt++
	if rt.stepping {
		rt.added = append(rt.added, inst)
	} else {
		rt.sched.add(inst.priority, inst)
	}
	g := rt.byScript[s]
	if g == nil {
		g = &group{}
		rt.byScript[s] = g
	}
	g.insts = append(g.insts, inst)
	if err := inst.create(); err != nil {
		return nil, err
	}
	// Subscribed once onCreate has run, so that an event sent from its own
	// onCreate does not reach a half-created instance.
	if inst.handler != nil && inst.state == instCreated {
		rt.events.subscribe(inst)
	}
	return inst, nil
}

// Detach takes inst out of the schedule at once. Its onDestroy runs at the
// frame's flush (in detach order), or at once outside a frame. It returns
// false when inst was already detached or destroyed.
func (rt *Runtime) Detach(inst *Instance) bool {
	if inst.detached || inst.state != instCreated {
		return false
	}
	inst.detached = true
	if rt.deferring() {
		rt.detached = append(rt.detached, inst)
	} else {
		rt.destroy(inst)
	}
	return true
}

// DetachScript detaches every instance of the script named name from h and
// returns how many it detached.
func (rt *Runtime) DetachScript(h Handle, name string) (int, error) {
	s, err := rt.slots.get(h)
	if err != nil {
		return 0, err
	}
	n := 0
	for _, inst := range slices.Clone(s.ent.insts) {
		if inst.script.Name() == name && rt.Detach(inst) {
			n++
		}
	}
	return n, nil
}

// Instances returns h's live instances in attach order.
func (rt *Runtime) Instances(h Handle) ([]*Instance, error) {
	return rt.InstancesAppend(nil, h)
}

// InstancesAppend appends h's live instances, in attach order, to dst and
// returns it: Instances for a caller that keeps a buffer.
func (rt *Runtime) InstancesAppend(dst []*Instance, h Handle) ([]*Instance, error) {
	s, err := rt.slots.get(h)
	if err != nil {
		return dst, err
	}
	for _, inst := range s.ent.insts {
		if inst.state == instCreated && !inst.detached {
			dst = append(dst, inst)
		}
	}
	return dst, nil
}

// destroy destroys inst and takes it off its entity, its script's group
// and the schedule. Amortised O(1): the entity's list drops its destroyed
// instances once they are half of it.
func (rt *Runtime) destroy(inst *Instance) {
	if err := inst.destroy(); err != nil {
		panic(err)
	}
	rt.instanceCnt--
	if rt.sched.remove(inst) && !rt.stepping && !rt.closed {
		rt.sched.compactDue()
	}
	rt.byScript[inst.script].drop()
	if s, err := rt.slots.get(inst.entity); err == nil {
		e := s.ent
		if e.deadInsts++; 2*e.deadInsts >= len(e.insts) {
			e.insts = slices.DeleteFunc(e.insts, func(x *Instance) bool { return x.state == instDestroyed })
			e.deadInsts = 0
		}
	}
}
