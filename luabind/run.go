package luabind

import (
	lua "github.com/yuin/gopher-lua"

	"github.com/luahost/luahost/luabind/internal/gopherx"
	"github.com/luahost/luahost/runtime"
)

// UpdateRun is Update for each instance r gives (runtime.RunUpdater).
// Between frames' edges a run is most often thousands of instances of
// one script, and what Update pays around each onUpdate — the frame's
// numbers, the call depth, the panic hook, the deferred recover — is the
// same for all of them: updates pays it once for as many as it can run,
// and Update runs the others (an instance whose timers are due, a call
// that timing samples, a state that calls through protect). Every
// callback still has its own budget, its own entity in ctx, its own
// count and its own error.
func (s *Script) UpdateRun(r *runtime.Run, dt float64) {
	st := s.st
	for inst := r.Next(); inst != nil; inst = r.Next() {
		if st.direct() {
			stop, err := st.updates(r, inst)
			if err != nil {
				r.Fail(err)
				continue
			}
			if stop == nil {
				return
			}
			inst = stop
		}
		if err := s.Update(inst, dt); err != nil {
			r.Fail(err)
		}
	}
}

// direct reports whether onUpdates may run through updates now: the
// script has one, callbacks are called directly (direct.go), and no
// callback runs.
func (st *state) direct() bool {
	return st.onUpdate != nil && st.stack != nil && st.cur == nil && st.host.nesting == 0 && st.depth() == 0
}

// updates runs onUpdate(self, ctx, dt) for inst and for the instances r
// gives after it, under one protection, as Update would for each, until
// one fails (its error is returned) or needs Update itself (it is
// returned: its timers are due, or its call is to be timed). It returns
// nil and no error once the run is done.
func (st *state) updates(r *runtime.Run, inst *runtime.Instance) (stop *runtime.Instance, err error) {
	h, L := st.host, st.L
	c, b := &h.clock, h.budget
	k := &st.script.timing.kinds[kindOnUpdate]
	tm := &st.script.timing
	st.syncFrame()
	if !c.off {
		tm.at(st.frame)
	}
	due := h.rt.Time() + timerSlack
	straight := st.straightUpdate()
	base, calling := L.GetTop(), false
	prev := L.Panic
	L.Panic = st.hook
	defer func() {
		// Only what a callback raised is caught, as call catches it;
		// anything else goes on up.
		if calling {
			if v := recover(); v != nil {
				e := st.caught(v)
				st.stack.Cut(0)
				L.SetTop(base)
				L.Panic = prev
				h.nesting--
				if err = st.ended(b, e, "onUpdate", ""); !c.off {
					st.count(k, err)
				}
			}
		}
		L.Panic = prev
		st.cur, st.curEntity = nil, nil
	}()
	for ; inst != nil; inst = r.Next() {
		li := inst.Data.(*instance)
		if ts := li.pending(); len(ts) > 0 && ts[0].Due <= due {
			return inst, nil
		}
		if !c.off {
			// pcallAs would time this call: Update makes it.
			if c.skip <= 1 || !k.sampled {
				return inst, nil
			}
			c.skip--
		}
		st.cur, st.curEntity = inst, li.ent
		if st.entityRead {
			st.curEntity = st.entityOf(inst, li)
			st.showEntity(st.curEntity)
		}
		if b != nil {
			b.Arm()
		}
		h.nesting++
		L.Push(st.onUpdate)
		L.Push(li.self)
		L.Push(st.ctx)
		L.Push(st.dt)
		calling = true
		if straight > 0 && b.Straight(straight) {
			st.straight.Call(3, 0)
		} else {
			L.Call(3, 0)
		}
		calling = false
		h.nesting--
		if b != nil {
			b.Disarm(false)
		}
		if !c.off {
			k.calls++
			tm.frameCalls++
		}
	}
	return nil, nil
}

// straightUpdate returns the length of onUpdate when it is straight-line
// code (gopherx.StraightLen: it calls nothing and loops nowhere) that
// runs under a budget and no debugger, and 0 otherwise. Such an onUpdate
// is charged its length at once and runs without a look at the budget
// before each instruction; a metamethod it reaches still runs counted.
func (st *state) straightUpdate() int64 { return st.straightLenOf(st.onUpdate) }

// straightLenOf is straightUpdate for any callback's function fn. The
// last function asked about is answered at once (the onUpdates of a run,
// a dispatch's handlers ask about one function one after another), the
// others from the lengths measured by prototype, so that callbacks of a
// state that alternate (an onUpdate and the handler it sends to) scan
// their code once. The lengths kept are bounded: a console's snippets are
// new prototypes each.
func (st *state) straightLenOf(fn *lua.LFunction) int64 {
	if st.host.budget == nil || st.host.debug != nil {
		return 0
	}
	if st.straightFn == fn {
		return st.straightLen
	}
	var n int64
	if fn != nil && fn.Proto != nil {
		var known bool
		if n, known = st.straightLens[fn.Proto]; !known {
			n = gopherx.StraightLen(fn)
			if st.straightLens == nil || len(st.straightLens) >= maxStraightLens {
				st.straightLens = map[*lua.FunctionProto]int64{}
			}
			st.straightLens[fn.Proto] = n
		}
	}
	if n > 0 && st.straight == nil {
		st.straight = gopherx.NewStraight(st.L)
	}
	if st.straight == nil {
		n = 0
	}
	st.straightFn, st.straightLen = fn, n
	return n
}

// maxStraightLens bounds the lengths a state keeps (straightLenOf).
const maxStraightLens = 64

var _ runtime.RunUpdater = (*Script)(nil)
