package gopherx

import (
	"context"
	"errors"
	"reflect"
	"sync"
	"unsafe"

	lua "github.com/yuin/gopher-lua"
)

// gopher-lua runs the instructions of a state that has a context through
// a loop that asks the context before every instruction (the budget
// counts them there), and those of a state without one through a plain
// loop; which one is the state's unexported mainLoop field, set by
// SetContext. A function that neither calls nor loops runs at most as
// many instructions as it has: a host may charge them at once and run
// the function through the plain loop (Straight), while every Lua
// function it reaches otherwise (a metamethod, entered through the
// state's loop anew) still runs through the checking one.

// loopFunc is the type of LState.mainLoop, its frame argument untyped.
type loopFunc = func(*lua.LState, unsafe.Pointer)

// loopSet is the field's offset and gopher-lua's two loops.
type loopSet struct {
	offset          uintptr
	plain, checking loopFunc
}

// loops finds the loops once.
var loops = sync.OnceValues(func() (l loopSet, err error) {
	f, ok := reflect.TypeOf(lua.LState{}).FieldByName("mainLoop")
	if !ok || f.Type.Kind() != reflect.Func || f.Type.NumIn() != 2 || f.Type.NumOut() != 0 ||
		f.Type.In(0) != reflect.TypeOf(&lua.LState{}) || f.Type.In(1).Kind() != reflect.Pointer {
		return l, errors.New("not found")
	}
	l.offset = f.Offset
	L := lua.NewState(lua.Options{SkipOpenLibs: true})
	defer L.Close()
	plain := *loopSlot(L, l.offset)
	L.SetContext(context.Background())
	checking := *loopSlot(L, l.offset)
	if plain == nil || checking == nil || plain == checking {
		return l, errors.New("SetContext does not switch it")
	}
	*(*unsafe.Pointer)(unsafe.Pointer(&l.plain)) = plain
	*(*unsafe.Pointer)(unsafe.Pointer(&l.checking)) = checking
	return l, nil
})

// loopSlot returns the address of L's mainLoop field, a func value: one
// pointer word.
func loopSlot(L *lua.LState, offset uintptr) *unsafe.Pointer {
	return (*unsafe.Pointer)(unsafe.Add(unsafe.Pointer(L), offset))
}

func checkLoops() error {
	_, err := loops()
	return err
}

// Straight calls functions of one state through the plain loop (see
// above). Make one per state with NewStraight.
type Straight struct {
	L *lua.LState
	// slot is L's mainLoop field.
	slot *unsafe.Pointer
	next bool
	// loop is what Call installs as the state's mainLoop: the plain
	// loop for the first entry after Call set next, the checking loop
	// for every other.
	loop  loopFunc
	loopP unsafe.Pointer
}

// NewStraight returns L's Straight, or nil when gopher-lua is not laid
// out as assumed (Check reports it).
func NewStraight(L *lua.LState) *Straight {
	l, err := loops()
	if err != nil {
		return nil
	}
	s := &Straight{L: L, slot: loopSlot(L, l.offset)}
	s.loop = func(L *lua.LState, frame unsafe.Pointer) {
		if s.next {
			s.next = false
			l.plain(L, frame)
			return
		}
		l.checking(L, frame)
	}
	s.loopP = *(*unsafe.Pointer)(unsafe.Pointer(&s.loop))
	return s
}

// Call is L.Call(nargs, nret) of the Lua function below the arguments,
// whose own instructions run through the plain loop: the caller has
// charged them (StraightLen). The state must have a context: its loop is
// the checking one before Call and after.
func (s *Straight) Call(nargs, nret int) {
	prev := *s.slot
	*s.slot = s.loopP
	s.next = true
	defer func() {
		s.next = false
		*s.slot = prev
	}()
	s.L.Call(nargs, nret)
}

// StraightLen returns the number of instructions of fn when it is a Lua
// function that runs each of them at most once, calling nothing (no
// call, no tail call) and looping nowhere (no for, no backward jump), and
// 0 otherwise.
func StraightLen(fn *lua.LFunction) int64 {
	if fn == nil || fn.IsG || fn.Proto == nil {
		return 0
	}
	for _, c := range fn.Proto.Code {
		switch i := Inst(c); i.Op() {
		case lua.OP_CALL, lua.OP_TAILCALL, lua.OP_FORLOOP, lua.OP_FORPREP, lua.OP_TFORLOOP:
			return 0
		case lua.OP_JMP:
			if i.Sbx() < 0 {
				return 0
			}
		}
	}
	return int64(len(fn.Proto.Code))
}
