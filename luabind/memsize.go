package luabind

import (
	"math/bits"
	"unsafe"

	lua "github.com/yuin/gopher-lua"

	"github.com/luahost/luahost/luabind/internal/gopherx"
	"github.com/luahost/luahost/runtime"
)

// sharedString is the length from which a string's bytes are counted
// once however many places hold it (keyed by its data's address):
// shorter ones are counted at each place.
const sharedString = 64

// sizer estimates the memory that Lua data holds, counting every object
// once however many places reach it. It reads the data only: run it on the
// goroutine that drives the host.
type sizer struct {
	seen  *pointerSet
	bytes int64
	// stopAt ends the walk early once bytes passes it (0: never).
	stopAt int64
	// levels counts the call-stack levels looked up: gopher-lua finds
	// level n in n steps, so a deep stack costs a measure its square.
	levels int64
}

// newSizer returns a sizer that reuses seen, cleared, as its seen set:
// a measure then allocates nothing once the set is large enough (it runs
// when the process allocated a lot, and must not add to it).
func newSizer(seen *pointerSet) *sizer {
	seen.reset()
	return &sizer{seen: seen}
}

// first reports whether p is seen for the first time, and marks it. Past
// stopAt, nothing is new: the walk winds down.
func (z *sizer) first(p unsafe.Pointer) bool {
	if z.stopAt > 0 && z.bytes > z.stopAt {
		return false
	}
	return z.seen.add(uintptr(p))
}

// pointerSet is a set of addresses, open addressing with linear probing:
// a measure inserts every object it reaches, and a Go map costs several
// times more per insert. It holds addresses as numbers, not pointers: a
// measure only compares them, while everything it reaches is alive.
type pointerSet struct {
	slots []uintptr
	n     int
	// shift keeps the top bits of the Fibonacci hash: len(slots) is
	// 1 << (64 - shift).
	shift uint
}

// reset empties the set, keeping its room.
func (s *pointerSet) reset() {
	clear(s.slots)
	s.n = 0
}

// add inserts p and reports whether it was new. p is never 0.
func (s *pointerSet) add(p uintptr) bool {
	if 2*(s.n+1) > len(s.slots) {
		s.grow()
	}
	mask := uintptr(len(s.slots) - 1)
	for i := (p * 0x9E3779B97F4A7C15) >> s.shift; ; i = (i + 1) & mask {
		switch s.slots[i] {
		case p:
			return false
		case 0:
			s.slots[i] = p
			s.n++
			return true
		}
	}
}

func (s *pointerSet) grow() {
	old := s.slots
	n := max(1024, 2*len(old))
	s.slots = make([]uintptr, n)
	s.shift = uint(64 - bits.TrailingZeros(uint(n)))
	s.n = 0
	for _, p := range old {
		if p != 0 {
			s.add(p)
		}
	}
}

// value adds what v holds.
func (z *sizer) value(v lua.LValue) {
	switch x := v.(type) {
	case lua.LString:
		if len(x) >= sharedString && !z.first(unsafe.Pointer(unsafe.StringData(string(x)))) {
			return
		}
		z.bytes += gopherx.StringBytes + int64(len(x))
	case *lua.LTable:
		z.table(x)
	case *lua.LFunction:
		if !z.first(unsafe.Pointer(x)) {
			return
		}
		z.bytes += gopherx.FunctionBytes + gopherx.UpvalueBytes*int64(len(x.Upvalues))
		if x.Env != nil {
			z.table(x.Env)
		}
		for _, uv := range x.Upvalues {
			z.value(uv.Value())
		}
	case *lua.LUserData:
		if !z.first(unsafe.Pointer(x)) {
			return
		}
		z.bytes += gopherx.UserdataBytes
		if x.Env != nil {
			z.table(x.Env)
		}
		if x.Metatable != nil {
			z.value(x.Metatable)
		}
	case *lua.LState:
		z.thread(x)
	}
}

func (z *sizer) table(t *lua.LTable) {
	if !z.first(unsafe.Pointer(t)) {
		return
	}
	z.bytes += gopherx.TableBytes
	if t.Metatable != nil {
		z.value(t.Metatable)
	}
	// The array part by index and the rest with Next: ForEach would box
	// every array index into a new number.
	n := t.Len()
	for i := 1; i <= n; i++ {
		z.bytes += gopherx.EntryBytes
		z.value(t.RawGetInt(i))
	}
	var k lua.LValue = lua.LNil
	if n > 0 {
		k = lua.LNumber(n)
	}
	for k, v := t.Next(k); k != lua.LNil; k, v = t.Next(k) {
		z.bytes += gopherx.EntryBytes
		z.value(k)
		z.value(v)
	}
}

// thread adds a Lua thread (the main state or a coroutine): its
// environment and every local and function of its call stack. Temporary
// values of frames other than the running one are not seen.
func (z *sizer) thread(L *lua.LState) {
	if !z.first(unsafe.Pointer(L)) {
		return
	}
	z.bytes += gopherx.ThreadBytes
	if L.Env != nil {
		z.table(L.Env)
	}
	for level := 0; ; level++ {
		dbg, ok := L.GetStack(level)
		z.levels += int64(level) + 1
		if !ok {
			break
		}
		fn, err := L.GetInfo("f", dbg, lua.LNil)
		if err != nil {
			continue
		}
		z.value(fn)
		if f, ok := fn.(*lua.LFunction); !ok || f.IsG {
			continue
		}
		for n := 1; ; n++ {
			name, v := L.GetLocal(dbg, n)
			if name == "" {
				break
			}
			z.value(v)
		}
	}
	for i := 1; i <= L.GetTop(); i++ {
		z.value(L.Get(i))
	}
}

// state adds a script's Lua state: its globals, registry and stack.
func (z *sizer) state(st *state) {
	if st.L == nil {
		return
	}
	z.table(st.L.G.Global)
	z.table(st.L.G.Registry)
	z.thread(st.L)
	// The script's table is held by Go: its callbacks, handlers and
	// their upvalues (a module-level local) are the state's too.
	z.table(st.table)
	z.table(st.props)
	for _, t := range st.selves.ahead() {
		z.table(t)
	}
	z.table(st.ctx)
}

// plain adds plain data held on the Go side (the blackboard).
func (z *sizer) plain(v any) {
	switch x := v.(type) {
	case string:
		z.bytes += gopherx.StringBytes + int64(len(x))
	case *runtime.Table:
		z.bytes += gopherx.TableBytes + gopherx.EntryBytes*int64(len(x.Fields))
		for _, f := range x.Fields {
			z.plain(f.Key)
			z.plain(f.Value)
		}
	}
}

// instance counts what an instance holds: its self, and the data of its
// pending timers (plain data in Go, which a script can make as large as
// any table: a timer a frame with 64 MiB of data grew the process
// unseen).
func (z *sizer) instance(li *instance) {
	z.table(li.self)
	for _, t := range li.pending() {
		z.plain(t.Data)
	}
}

// measureWork is what a measure costs per object it visits, in
// instructions' worth of time; a step of a call-stack lookup costs a
// quarter of an instruction.
const measureWork = 8

// measureLua estimates the memory the host's Lua data holds, or a size
// past stopAt as soon as it is past it (stopAt 0: the whole): every state
// (also one being loaded or migrated to), every instance's self and
// timers' data, the blackboard, and the data of the broadcasts not yet
// delivered; and what the measure cost, in instructions (measureWork per
// object visited, and the steps of its call-stack lookups), by which the
// limit rations its measures. It is the
// per-callback memory limit's measure, taken on the driving goroutine:
// another runtime's or goroutine's allocations never change it. O(the
// data).
func (h *Host) measureLua(stopAt int64) (size, cost int64) {
	z := newSizer(h.seen)
	z.stopAt = stopAt
	for _, s := range h.order {
		z.state(s.st)
	}
	for _, st := range h.building {
		z.state(st)
	}
	for _, e := range h.rt.Entities() {
		insts, _ := h.rt.Instances(e)
		for _, inst := range insts {
			if li, ok := inst.Data.(*instance); ok {
				z.instance(li)
			}
		}
	}
	bb := h.rt.Blackboard()
	for _, k := range bb.Keys() {
		z.plain(bb.GetPlain(k))
	}
	return z.bytes + h.zoning.sent, int64(z.seen.n)*measureWork + z.levels/4
}

// plainBytes estimates the memory plain data v holds.
func plainBytes(v any) int64 {
	var z sizer
	z.plain(v)
	return z.bytes
}
