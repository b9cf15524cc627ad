package gopherx

import (
	"reflect"
	"sync"
	"unsafe"

	lua "github.com/yuin/gopher-lua"
)

// CallStack is a state's call stack, for cutting it back after an error
// caught by a direct call (what PCall does after an error, without its
// wrapper): gopher-lua exports no function for it, so the state's
// unexported stack and current frame are reached by reflection, once per
// state.
type CallStack struct {
	frames interface {
		Sp() int
		SetSp(int)
	}
	// last is the stack's Last method, current the state's current
	// frame (settable).
	last, current reflect.Value
}

// NewCallStack returns L's call stack, or nil when the state is not laid
// out as expected (Check reports it).
func NewCallStack(L *lua.LState) *CallStack {
	v := reflect.ValueOf(L).Elem()
	sf, cf := v.FieldByName("stack"), v.FieldByName("currentFrame")
	if !sf.IsValid() || sf.Kind() != reflect.Interface || !cf.IsValid() || cf.Kind() != reflect.Pointer {
		return nil
	}
	stack := reflect.NewAt(sf.Type(), unsafe.Pointer(sf.UnsafeAddr())).Elem().Elem()
	if !stack.IsValid() {
		return nil
	}
	frames, ok := stack.Interface().(interface {
		Sp() int
		SetSp(int)
	})
	last := stack.MethodByName("Last")
	if !ok || !last.IsValid() || last.Type().NumIn() != 0 || last.Type().NumOut() != 1 || last.Type().Out(0) != cf.Type() {
		return nil
	}
	return &CallStack{frames: frames, last: last, current: reflect.NewAt(cf.Type(), unsafe.Pointer(cf.UnsafeAddr())).Elem()}
}

// Depth returns how many frames the call stack holds.
func (c *CallStack) Depth() int { return c.frames.Sp() }

// Cut unwinds the call stack to sp frames and makes the last remaining
// frame the current one, as PCall does after an error.
func (c *CallStack) Cut(sp int) {
	c.frames.SetSp(sp)
	c.current.Set(c.last.Call(nil)[0])
}

// frameOffsets locates, by reflection once (gopher-lua exports neither),
// the state's current frame and a frame's index on the call stack: their
// offsets in LState and in callFrame; ok is false when gopher-lua lays
// them out differently.
var frameOffsets = sync.OnceValues(func() (offsets [2]uintptr, ok bool) {
	cur, found := reflect.TypeFor[lua.LState]().FieldByName("currentFrame")
	if !found || cur.Type.Kind() != reflect.Pointer || cur.Type.Elem().Kind() != reflect.Struct {
		return offsets, false
	}
	idx, found := cur.Type.Elem().FieldByName("Idx")
	if !found || idx.Type.Kind() != reflect.Int || len(idx.Index) != 1 || len(cur.Index) != 1 {
		return offsets, false
	}
	return [2]uintptr{cur.Offset, idx.Offset}, true
})

// CallDepth returns how many frames L's call stack holds, its current
// frame included; 0 when it cannot tell (Check reports that).
func CallDepth(L *lua.LState) int {
	off, ok := frameOffsets()
	if !ok {
		return 0
	}
	cur := *(*unsafe.Pointer)(unsafe.Add(unsafe.Pointer(L), off[0]))
	if cur == nil {
		return 0
	}
	return *(*int)(unsafe.Add(cur, off[1])) + 1
}

// CallStackCapacity returns the most frames a state made with
// lua.Options{CallStackSize: size} holds: size rounded up to whole
// segments of gopher-lua's auto-growing call stack.
func CallStackCapacity(size int) int {
	return (size + lua.FramesPerSegment - 1) / lua.FramesPerSegment * lua.FramesPerSegment
}

// FramePC returns the index of the instruction the frame of dbg is
// executing. gopher-lua keeps a frame's program counter (one past that
// instruction) in an unexported field of Debug and offers no accessor;
// ok is false should a later gopher-lua lay Debug out differently.
func FramePC(dbg *lua.Debug) (pc int, ok bool) {
	f := reflect.ValueOf(dbg).Elem().FieldByName("frame")
	if !f.IsValid() || f.Kind() != reflect.Pointer || f.IsNil() {
		return 0, false
	}
	p := f.Elem().FieldByName("Pc")
	if !p.IsValid() || p.Kind() != reflect.Int {
		return 0, false
	}
	return int(p.Int()) - 1, true
}

// FrameFunction returns the function the frame of dbg runs, without
// pushing it onto the state's stack as GetInfo("f") does (which, between
// two instructions of a Lua function, could overwrite its registers), or
// nil should a later gopher-lua lay Debug out differently.
func FrameFunction(dbg *lua.Debug) *lua.LFunction {
	f := reflect.ValueOf(dbg).Elem().FieldByName("frame")
	if !f.IsValid() || f.Kind() != reflect.Pointer || f.IsNil() {
		return nil
	}
	fn := f.Elem().FieldByName("Fn")
	if !fn.IsValid() || fn.Type() != reflect.TypeFor[*lua.LFunction]() {
		return nil
	}
	return reflect.NewAt(fn.Type(), unsafe.Pointer(fn.UnsafeAddr())).Elem().Interface().(*lua.LFunction)
}

// FrameTailCalls returns how many tail calls the Lua function of the
// frame of dbg replaced (gopher-lua's unexported callFrame.TailCall, which
// its GetStack counts as levels, as Lua 5.1 does); ok is false should a
// later gopher-lua lay frames out differently.
func FrameTailCalls(dbg *lua.Debug) (n int, ok bool) {
	f := reflect.ValueOf(dbg).Elem().FieldByName("frame")
	if !f.IsValid() || f.Kind() != reflect.Pointer || f.IsNil() {
		return 0, false
	}
	tc := f.Elem().FieldByName("TailCall")
	if !tc.IsValid() || tc.Kind() != reflect.Int {
		return 0, false
	}
	return int(tc.Int()), true
}
