package gopherx

import (
	"errors"
	"fmt"
	"strings"
	"sync"

	lua "github.com/yuin/gopher-lua"
	"github.com/yuin/gopher-lua/parse"
)

// An assumption is one thing luahost takes for granted about gopher-lua's
// internals, with what depends on it.
type assumption struct {
	name, feature string
	holds         func() error
}

var assumptions = []assumption{
	{"LState.stack and currentFrame", "callbacks called without a protecting wrapper", checkCallStack},
	{"callFrame.Idx", "the guard against a full call stack", checkCallDepth},
	{"Debug.frame.Pc", "culprits named in error messages", checkFramePC},
	{"Debug.frame.Fn", "upvalues shown by the debugger", checkFrameFunction},
	{"LTable.keys", "removed keys kept in snapshots", checkTableKeys},
	{"LTable.array", "# of tables made by a constructor, as Lua 5.1 answers it", checkTableArray},
	{"LTable.strdict, keys and k2i", "vectors made in few allocations", checkRecord},
	{"the symbol names of callR and threadRun", "yields across Go calls refused", checkYieldable},
	{"the instruction layout", "culprits named in error messages", checkInstLayout},
	{"Go functions as prototype constants", "the compile step's helpers (bounded .., #, numeric for)", checkGoConstant},
	{"the call-stack overflow panic", "stack overflows reported as Lua errors", checkOverflow},
	{"LState.mainLoop", "straight-line callbacks run without a look at the budget before each instruction", checkLoops},
	{"LState.hasErrorFunc", "locals shared with closures kept across nested pcalls", checkHandler},
	{"LState.uvcache and Upvalue's links", "a failed pcall's locals kept by the closures it made", checkUpvalues},
}

// check runs every assumption once per process.
var check = sync.OnceValue(func() error {
	var errs []error
	for _, a := range assumptions {
		if err := a.holds(); err != nil {
			errs = append(errs, fmt.Errorf("gopher-lua's %s: %w (needed for %s)", a.name, err, a.feature))
		}
	}
	return errors.Join(errs...)
})

// Check verifies that the gopher-lua this program was built with is laid
// out as luahost assumes, and returns an error naming every assumption
// that fails and the feature that depends on it, or nil. It runs the
// probes once per process; later calls return the first answer.
func Check() error { return check() }

// probe runs src in a fresh bare state with fn registered as the global
// probe, and returns the error it raised.
func probe(src string, fn lua.LGFunction) error {
	L := lua.NewState(lua.Options{SkipOpenLibs: true})
	defer L.Close()
	lua.OpenBase(L)
	lua.OpenCoroutine(L)
	L.SetGlobal("probe", L.NewFunction(fn))
	return L.DoString(src)
}

func checkCallStack() error {
	L := lua.NewState(lua.Options{SkipOpenLibs: true})
	defer L.Close()
	if NewCallStack(L) == nil {
		return errors.New("not found")
	}
	return nil
}

func checkCallDepth() error {
	var depth int
	if err := probe("local function f() probe() end f()", func(L *lua.LState) int {
		depth = CallDepth(L)
		return 0
	}); err != nil {
		return err
	}
	// The chunk, f and probe.
	if depth != 3 {
		return fmt.Errorf("a call three deep reads as %d", depth)
	}
	return nil
}

func checkFramePC() error {
	var pc int
	var ok bool
	if err := probe("local x = 1\nprobe()", func(L *lua.LState) int {
		dbg, _ := L.GetStack(1)
		pc, ok = FramePC(dbg)
		return 0
	}); err != nil {
		return err
	}
	if !ok || pc <= 0 {
		return fmt.Errorf("not found (pc %d)", pc)
	}
	return nil
}

func checkTableKeys() error {
	t := &lua.LTable{}
	t.RawSetString("a", lua.LTrue)
	t.RawSetString("b", lua.LTrue)
	t.RawSetString("a", lua.LNil)
	keys := TableKeys(t)
	if len(keys) != 2 || keys[0] != lua.LString("a") || keys[1] != lua.LString("b") {
		return fmt.Errorf("a table that had keys a and b lists %v", keys)
	}
	return nil
}

// checkTableArray checks that a table made with room for 3 array
// entries and given 1, nil, 3 has an array part of exactly that length
// and capacity, and that a write past it grows the slice.
func checkTableArray() error {
	L := lua.NewState(lua.Options{SkipOpenLibs: true})
	defer L.Close()
	t := L.CreateTable(3, 0)
	for i, v := range []lua.LValue{lua.LNumber(1), lua.LNil, lua.LNumber(3)} {
		t.RawSetInt(i+1, v)
	}
	a := TableArray(t)
	if len(a) != 3 || cap(a) != 3 || a[1] != lua.LNil || a[2] != lua.LNumber(3) {
		return fmt.Errorf("a table made for 3 array entries holding 1, nil, 3 has the array part %v (capacity %d)", a, cap(a))
	}
	t.RawSetInt(4, lua.LTrue)
	if a := TableArray(t); len(a) != 4 || cap(a) == 4 {
		return fmt.Errorf("a write past the array part left it %v (capacity %d)", a, cap(a))
	}
	return nil
}

// checkRecord compares a record with the table RawSetString builds: the
// same fields, visited in the same order, and a key set later lands as
// in any table.
func checkRecord() error {
	if !recordLayout.ok {
		return errors.New("LTable has no strdict, keys and k2i of the expected types")
	}
	names := []string{"x", "y"}
	rec := NewRecord(names, []lua.LValue{lua.LString("x"), lua.LString("y")}, []lua.LValue{lua.LNumber(1), lua.LNumber(2)}, lua.LNil)
	rec.RawSetString("z", lua.LNumber(3))
	var got []string
	for k, v := rec.Next(lua.LNil); k != lua.LNil; k, v = rec.Next(k) {
		got = append(got, k.String()+"="+v.String())
	}
	if strings.Join(got, ",") != "x=1,y=2,z=3" || len(TableKeys(rec)) != 3 {
		return fmt.Errorf("a record of x, y with z set later visits %v", got)
	}
	return nil
}

func checkYieldable() error {
	var direct, viaGo bool
	err := probe(`
local co = coroutine.create(function()
	probe("direct")
	pcall(probe, "go")
end)
coroutine.resume(co)`, func(L *lua.LState) int {
		if L.CheckString(1) == "direct" {
			direct = Yieldable()
		} else {
			viaGo = Yieldable()
		}
		return 0
	})
	if err != nil {
		return err
	}
	if !direct {
		return errors.New("a coroutine's own call reads as not yieldable")
	}
	if viaGo {
		return errors.New("a call through a Go function reads as yieldable")
	}
	return nil
}

func checkInstLayout() error {
	chunk, err := parse.Parse(strings.NewReader("local a, b = 'x', 'y'"), "probe")
	if err != nil {
		return err
	}
	proto, err := lua.Compile(chunk, "probe")
	if err != nil {
		return err
	}
	if len(proto.Code) < 2 {
		return errors.New("no code")
	}
	i := Inst(proto.Code[1])
	if i.Op() != lua.OP_LOADK || i.A() != 1 || i.Bx() != 1 {
		return fmt.Errorf("LOADK 1 1 decodes as op %d A %d Bx %d", i.Op(), i.A(), i.Bx())
	}
	return nil
}

func checkOverflow() error {
	// The overflow is a Go panic on the auto-growing call stack (a fixed
	// one raises "stack overflow" in Lua).
	L := lua.NewState(lua.Options{SkipOpenLibs: true, CallStackSize: 8, MinimizeStackMemory: true})
	defer L.Close()
	err := L.DoString("local function f() return f() + 1 end f()")
	var ae *lua.ApiError
	if !errors.As(err, &ae) || ae.Type != lua.ApiErrorPanic || ae.Object != lua.LString(CallStackOverflow) {
		return fmt.Errorf("a full call stack raises %v", err)
	}
	return nil
}

func checkFrameFunction() error {
	var fn *lua.LFunction
	if err := probe("local function f() probe() end f()", func(L *lua.LState) int {
		dbg, _ := L.GetStack(1)
		fn = FrameFunction(dbg)
		return 0
	}); err != nil {
		return err
	}
	if fn == nil || fn.IsG || fn.Proto == nil {
		return errors.New("not found")
	}
	return nil
}

func checkGoConstant() error {
	chunk, err := parse.Parse(strings.NewReader(`return ("helper")(20)`), "probe")
	if err != nil {
		return err
	}
	proto, err := lua.Compile(chunk, "probe")
	if err != nil {
		return err
	}
	replaced := false
	for i, c := range proto.Constants {
		if c == lua.LString("helper") {
			proto.Constants[i] = &lua.LFunction{IsG: true, GFunction: func(L *lua.LState) int {
				L.Push(L.CheckNumber(1) + 1)
				return 1
			}}
			replaced = true
		}
	}
	if !replaced {
		return errors.New("the constant is not in the prototype")
	}
	L := lua.NewState(lua.Options{SkipOpenLibs: true})
	defer L.Close()
	L.Push(L.NewFunctionFromProto(proto))
	if err := L.PCall(0, 1, nil); err != nil {
		return err
	}
	if got := L.Get(-1); got != lua.LNumber(21) {
		return fmt.Errorf("a call of a Go function constant returned %v", got)
	}
	return nil
}
