package luabind

import (
	"cmp"
	"fmt"
	"io"
	"math"
	"os"
	goruntime "runtime"
	"slices"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	lua "github.com/yuin/gopher-lua"

	"github.com/luahost/luahost/runtime"
)

// realScript is the realistic benchmark's script, shared with the CLI's
// benchmark scenes.
const realScript = "../testdata/bench/scripts/wanderer.lua"

// BenchmarkRealistic measures the realistic scene — every entity reads
// ctx.entity, gets and sets its position with vec3 arithmetic, and twice a
// second a timer turns it round, queries its neighbours and sends each an
// event — against the same script run by a bare gopher-lua embedder
// (newBareReal). Every iteration runs a host frame and a bare frame back
// to back on one OS thread, each timed by the thread's CPU clock;
// x-bare is the host's total over bare's.
func BenchmarkRealistic(b *testing.B) {
	for _, n := range []int{1_000, 10_000} {
		for _, bc := range []struct {
			name   string
			budget time.Duration
		}{{"budget=off", -1}, {"budget=on", DefaultBudget}} {
			b.Run(fmt.Sprintf("entities=%d/%s", n, bc.name), func(b *testing.B) {
				benchRealistic(b, n, bc.budget)
			})
		}
	}
}

func benchRealistic(b *testing.B, n int, budget time.Duration) {
	goruntime.LockOSThread()
	defer goruntime.UnlockOSThread()
	rt := runtime.New(runtime.Options{OnError: func(err error) { b.Fatal(err) }})
	h, err := New(rt, limits(Options{Dir: "../testdata/bench/scripts", Stdout: io.Discard, Log: io.Discard}, budget))
	require.NoError(b, err)
	defer h.Close()
	for i := range n {
		t := runtime.Identity()
		t.Position = realPlace(i, n)
		e := rt.SpawnAt(t)
		_, err := h.Attach(e, "wanderer", map[string]any{"phase": realPhase(i)})
		require.NoError(b, err)
		require.NoError(b, rt.Activate(e))
	}
	const dt = 1.0 / 60
	require.NoError(b, rt.Step(dt))
	bare := newBareReal(b, n)
	bare.frame(dt)
	b.ReportAllocs()
	var hostTime, bareTime time.Duration
	for b.Loop() {
		t0 := threadCPU()
		_ = rt.Step(dt)
		t1 := threadCPU()
		bare.frame(dt)
		hostTime += t1 - t0
		bareTime += threadCPU() - t1
	}
	b.ReportMetric(float64(hostTime)/float64(bareTime), "x-bare")
	b.ReportMetric(float64(hostTime.Nanoseconds())/float64(b.N), "host-ns/frame")
	b.ReportMetric(float64(bareTime.Nanoseconds())/float64(b.N), "bare-ns/frame")
}

// limits sets o's budgets: budget > 0 is the work budget with the other
// limits at their defaults; otherwise every limit is off (work, memory,
// ceiling, wall clock), so that states carry no context, as for trusted
// scripts.
func limits(o Options, budget time.Duration) Options {
	if budget > 0 {
		o.Budget = budget
	} else {
		o.Budget, o.MemoryLimit, o.MemoryCeiling, o.WallClock = -1, -1, -1, -1
	}
	return o
}

// realPlace lays n entities out on a square grid one unit apart, so that
// a radius of 1.5 finds an entity's eight neighbours.
func realPlace(i, n int) runtime.Vec3 {
	side := int(math.Ceil(math.Sqrt(float64(n))))
	return runtime.Vec3{X: float64(i % side), Z: float64(i / side)}
}

// realPhase spreads the entities' timers over 30 frames.
func realPhase(i int) float64 { return float64(i%30+1) / 60 }

// bareReal is the realistic scene as a careful embedder of plain
// gopher-lua would write it: one state running the same script; an
// entity is a userdata made once, whose methods read and write a Go slice
// of positions; vectors are tables with x, y, z and a metatable of Go
// operators, as the host's are; ctx is a table whose entity field is set
// before each call; timers are a short list per entity checked in the
// walk; a radius query looks in a uniform grid of 2-unit cells.
type bareReal struct {
	L      *lua.LState
	script *lua.LTable
	events *lua.LTable
	update *lua.LFunction
	ctx    *lua.LTable
	vecMT  *lua.LTable
	ents   []bareEnt
	grid   map[[2]int32][]int32
	time   float64
	cur    int
	found  []int32
}

type bareEnt struct {
	self   *lua.LTable
	ud     *lua.LUserData
	pos    runtime.Vec3
	cell   [2]int32
	timers []bareTimer
}

type bareTimer struct {
	due, period float64
	fn          string
}

const bareCell = 2.0

func cellOf(p runtime.Vec3) [2]int32 {
	return [2]int32{int32(math.Floor(p.X / bareCell)), int32(math.Floor(p.Z / bareCell))}
}

func newBareReal(b *testing.B, n int) *bareReal {
	src, err := os.ReadFile(realScript)
	require.NoError(b, err)
	w := &bareReal{L: lua.NewState(), grid: map[[2]int32][]int32{}, cur: -1}
	b.Cleanup(w.L.Close)
	L := w.L
	w.installVec()
	w.ctx = L.CreateTable(0, 8)
	w.ctx.RawSetString("after", L.NewFunction(func(L *lua.LState) int { return w.addTimer(L, false) }))
	w.ctx.RawSetString("every", L.NewFunction(func(L *lua.LState) int { return w.addTimer(L, true) }))
	w.ctx.RawSetString("query", L.NewFunction(w.query))
	entMT := L.CreateTable(0, 1)
	methods := L.CreateTable(0, 4)
	methods.RawSetString("position", L.NewFunction(func(L *lua.LState) int {
		p := w.ents[w.checkEnt(L, 1)].pos
		L.Push(lua.LNumber(p.X))
		L.Push(lua.LNumber(p.Y))
		L.Push(lua.LNumber(p.Z))
		return 3
	}))
	methods.RawSetString("setPosition", L.NewFunction(func(L *lua.LState) int {
		i := w.checkEnt(L, 1)
		var p runtime.Vec3
		if t, ok := L.Get(2).(*lua.LTable); ok {
			p = vecFields(t)
		} else {
			p = runtime.Vec3{X: float64(L.CheckNumber(2)), Y: float64(L.CheckNumber(3)), Z: float64(L.CheckNumber(4))}
		}
		w.move(i, p)
		return 0
	}))
	methods.RawSetString("send", L.NewFunction(func(L *lua.LState) int {
		i := w.checkEnt(L, 1)
		if fn, ok := w.events.RawGetString(L.CheckString(2)).(*lua.LFunction); ok {
			w.call(i, fn, L.Get(3))
		}
		return 0
	}))
	entMT.RawSetString("__index", methods)

	require.NoError(b, L.DoString(string(src)))
	w.script = L.Get(-1).(*lua.LTable)
	L.Pop(1)
	w.update = w.script.RawGetString("onUpdate").(*lua.LFunction)
	w.events = w.script.RawGetString("events").(*lua.LTable)
	props := w.script.RawGetString("properties").(*lua.LTable)
	create := w.script.RawGetString("onCreate").(*lua.LFunction)
	w.ents = make([]bareEnt, n)
	for i := range w.ents {
		e := &w.ents[i]
		e.self = L.CreateTable(0, 8)
		props.ForEach(func(k, v lua.LValue) { e.self.RawSet(k, v) })
		e.self.RawSetString("phase", lua.LNumber(realPhase(i)))
		e.ud = L.NewUserData()
		e.ud.Value = i
		e.ud.Metatable = entMT
		e.pos = realPlace(i, n)
		e.cell = cellOf(e.pos)
		w.grid[e.cell] = append(w.grid[e.cell], int32(i))
	}
	for i := range w.ents {
		w.call(i, create, lua.LNil)
	}
	return w
}

// frame runs one frame: each entity's due timers, then its onUpdate.
func (w *bareReal) frame(dt float64) {
	w.time += dt
	var dtv lua.LValue = lua.LNumber(dt)
	for i := range w.ents {
		e := &w.ents[i]
		for j := 0; j < len(e.timers); {
			t := e.timers[j]
			if t.due > w.time {
				j++
				continue
			}
			if t.period > 0 {
				e.timers[j].due += t.period
				j++
			} else {
				e.timers = slices.Delete(e.timers, j, j+1)
			}
			w.call(i, w.script.RawGetString(t.fn).(*lua.LFunction), lua.LNil)
			e = &w.ents[i]
		}
		w.call(i, w.update, dtv)
	}
}

// call calls fn(self, ctx, arg) for entity i with ctx.entity set to it.
func (w *bareReal) call(i int, fn *lua.LFunction, arg lua.LValue) {
	prev := w.cur
	w.cur = i
	w.ctx.RawSetString("entity", w.ents[i].ud)
	L := w.L
	L.Push(fn)
	L.Push(w.ents[i].self)
	L.Push(w.ctx)
	L.Push(arg)
	L.Call(3, 0)
	w.cur = prev
	if prev >= 0 {
		w.ctx.RawSetString("entity", w.ents[prev].ud)
	}
}

func (w *bareReal) checkEnt(L *lua.LState, n int) int {
	if ud, ok := L.Get(n).(*lua.LUserData); ok {
		if i, ok := ud.Value.(int); ok {
			return i
		}
	}
	L.ArgError(n, "entity expected")
	return 0
}

func (w *bareReal) move(i int, p runtime.Vec3) {
	e := &w.ents[i]
	e.pos = p
	c := cellOf(p)
	if c == e.cell {
		return
	}
	old := w.grid[e.cell]
	k := slices.Index(old, int32(i))
	old[k] = old[len(old)-1]
	w.grid[e.cell] = old[:len(old)-1]
	w.grid[c] = append(w.grid[c], int32(i))
	e.cell = c
}

func (w *bareReal) addTimer(L *lua.LState, every bool) int {
	secs := float64(L.CheckNumber(1))
	t := bareTimer{due: w.time + secs, fn: L.CheckString(2)}
	if every {
		t.period = secs
	}
	e := &w.ents[w.cur]
	e.timers = append(e.timers, t)
	return 0
}

// query answers ctx.query{near = e, radius = r, limit = k}: the entities
// within r of e, nearest first, at most k.
func (w *bareReal) query(L *lua.LState) int {
	spec := L.CheckTable(1)
	center := w.ents[w.checkEntValue(L, spec.RawGetString("near"))].pos
	r := float64(lua.LVAsNumber(spec.RawGetString("radius")))
	limit := int(lua.LVAsNumber(spec.RawGetString("limit")))
	c := cellOf(center)
	reach := int32(math.Ceil(r / bareCell))
	w.found = w.found[:0]
	for cx := c[0] - reach; cx <= c[0]+reach; cx++ {
		for cz := c[1] - reach; cz <= c[1]+reach; cz++ {
			for _, j := range w.grid[[2]int32{cx, cz}] {
				if dist2(w.ents[j].pos, center) <= r*r {
					w.found = append(w.found, j)
				}
			}
		}
	}
	slices.SortFunc(w.found, func(a, b int32) int {
		return cmp.Or(cmp.Compare(dist2(w.ents[a].pos, center), dist2(w.ents[b].pos, center)), cmp.Compare(a, b))
	})
	if limit > 0 && len(w.found) > limit {
		w.found = w.found[:limit]
	}
	t := L.CreateTable(len(w.found), 0)
	for _, j := range w.found {
		t.Append(w.ents[j].ud)
	}
	L.Push(t)
	return 1
}

func (w *bareReal) checkEntValue(L *lua.LState, v lua.LValue) int {
	if ud, ok := v.(*lua.LUserData); ok {
		if i, ok := ud.Value.(int); ok {
			return i
		}
	}
	L.RaiseError("near must be an entity")
	return 0
}

func dist2(a, b runtime.Vec3) float64 {
	dx, dy, dz := a.X-b.X, a.Y-b.Y, a.Z-b.Z
	return dx*dx + dy*dy + dz*dz
}

func (w *bareReal) vec(v runtime.Vec3) *lua.LTable {
	t := w.L.CreateTable(0, 3)
	t.RawSetString("x", lua.LNumber(v.X))
	t.RawSetString("y", lua.LNumber(v.Y))
	t.RawSetString("z", lua.LNumber(v.Z))
	t.Metatable = w.vecMT
	return t
}

func vecFields(t *lua.LTable) runtime.Vec3 {
	return runtime.Vec3{
		X: float64(lua.LVAsNumber(t.RawGetString("x"))),
		Y: float64(lua.LVAsNumber(t.RawGetString("y"))),
		Z: float64(lua.LVAsNumber(t.RawGetString("z"))),
	}
}

// installVec gives w's state the global vec3 and the vectors' metatable.
func (w *bareReal) installVec() {
	L := w.L
	w.vecMT = w.newVecMT()
	L.SetGlobal("vec3", L.NewFunction(func(L *lua.LState) int {
		L.Push(w.vec(runtime.Vec3{X: float64(L.OptNumber(1, 0)), Y: float64(L.OptNumber(2, 0)), Z: float64(L.OptNumber(3, 0))}))
		return 1
	}))
}

func (w *bareReal) newVecMT() *lua.LTable {
	L := w.L
	operand := func(v lua.LValue) runtime.Vec3 {
		if n, ok := v.(lua.LNumber); ok {
			return splat(float64(n))
		}
		return vecFields(v.(*lua.LTable))
	}
	arith := func(f func(a, b runtime.Vec3) runtime.Vec3) *lua.LFunction {
		return L.NewFunction(func(L *lua.LState) int {
			L.Push(w.vec(f(operand(L.Get(1)), operand(L.Get(2)))))
			return 1
		})
	}
	mt := L.CreateTable(0, 4)
	mt.RawSetString("__add", arith(add))
	mt.RawSetString("__sub", arith(sub))
	mt.RawSetString("__mul", arith(mul))
	mt.RawSetString("__unm", L.NewFunction(func(L *lua.LState) int {
		L.Push(w.vec(scale(operand(L.Get(1)), -1)))
		return 1
	}))
	return mt
}
