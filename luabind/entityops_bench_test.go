package luabind

import (
	"io"
	"os"
	goruntime "runtime"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
	lua "github.com/yuin/gopher-lua"

	"github.com/luahost/luahost/runtime"
)

// BenchmarkEntityOps measures ctx.entity, e:position() and
// e:setPosition(x, y, z) against their bare equivalents: reading a field
// of a plain table, and calling a Go function with the same arguments
// through a userdata's method table, as a plain gopher-lua embedder
// would. vecadd adds two vectors (against the realistic benchmark's bare
// vectors, tables with a metatable of Go operators), numadd the same
// with three plain numbers, for scale. Every limit is off, so that the host's states carry no context
// either: what is measured is the API's own cost. Each iteration runs one host callback looping 1,000 times over
// the operation and the same loop in a bare state, back to back on one
// OS thread, timed by the thread's CPU clock: x-bare is the host's time
// over bare's, host-ns/op and bare-ns/op one operation with its share of
// the loop.
func BenchmarkEntityOps(b *testing.B) {
	for _, op := range []string{"entity", "position", "setPosition", "vecadd", "numadd"} {
		b.Run(op, func(b *testing.B) { benchEntityOp(b, op) })
	}
}

func benchEntityOp(b *testing.B, op string) {
	const n = 1000
	goruntime.LockOSThread()
	defer goruntime.UnlockOSThread()
	rt := runtime.New(runtime.Options{OnError: func(err error) { b.Fatal(err) }})
	h, err := New(rt, limits(Options{Dir: "testdata/scripts", Stdout: io.Discard, Log: io.Discard}, -1))
	require.NoError(b, err)
	defer h.Close()
	e := rt.Spawn()
	_, err = h.Attach(e, "bench/entityops", map[string]any{"n": n, "op": op})
	require.NoError(b, err)
	require.NoError(b, rt.Activate(e))
	require.NoError(b, rt.Step(1.0/60))
	bare := newBareEntityOps(b, n, op)
	bare()
	b.ReportAllocs()
	var hostTime, bareTime time.Duration
	for b.Loop() {
		t0 := threadCPU()
		_ = rt.Step(1.0 / 60)
		t1 := threadCPU()
		bare()
		hostTime += t1 - t0
		bareTime += threadCPU() - t1
	}
	b.ReportMetric(float64(hostTime)/float64(bareTime), "x-bare")
	b.ReportMetric(float64(hostTime.Nanoseconds())/float64(b.N)/n, "host-ns/op")
	b.ReportMetric(float64(bareTime.Nanoseconds())/float64(b.N)/n, "bare-ns/op")
}

// newBareEntityOps returns the bare equivalent of one entityops callback:
// the same function called with a plain table as ctx, whose entity field
// is a userdata with position and setPosition methods reading and writing
// a Go value.
func newBareEntityOps(b *testing.B, n int, op string) func() {
	src, err := os.ReadFile("testdata/scripts/bench/entityops.lua")
	require.NoError(b, err)
	L := lua.NewState()
	b.Cleanup(L.Close)
	(&bareReal{L: L}).installVec()
	require.NoError(b, L.DoString(string(src)))
	fn := L.Get(-1).(*lua.LTable).RawGetString("onUpdate").(*lua.LFunction)
	var pos runtime.Vec3
	methods := L.CreateTable(0, 2)
	methods.RawSetString("position", L.NewFunction(func(L *lua.LState) int {
		p := L.CheckUserData(1).Value.(*runtime.Vec3)
		L.Push(lua.LNumber(p.X))
		L.Push(lua.LNumber(p.Y))
		L.Push(lua.LNumber(p.Z))
		return 3
	}))
	methods.RawSetString("setPosition", L.NewFunction(func(L *lua.LState) int {
		p := L.CheckUserData(1).Value.(*runtime.Vec3)
		*p = runtime.Vec3{X: float64(L.CheckNumber(2)), Y: float64(L.CheckNumber(3)), Z: float64(L.CheckNumber(4))}
		return 0
	}))
	mt := L.CreateTable(0, 1)
	mt.RawSetString("__index", methods)
	ud := L.NewUserData()
	ud.Value = &pos
	ud.Metatable = mt
	ctx := L.CreateTable(0, 16)
	ctx.RawSetString("entity", ud)
	self := L.CreateTable(0, 8)
	self.RawSetString("n", lua.LNumber(n))
	self.RawSetString("op", lua.LString(op))
	var dt lua.LValue = lua.LNumber(1.0 / 60)
	return func() {
		L.Push(fn)
		L.Push(self)
		L.Push(ctx)
		L.Push(dt)
		L.Call(3, 0)
	}
}
