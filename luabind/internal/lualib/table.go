package lualib

import (
	"fmt"
	"strings"

	lua "github.com/yuin/gopher-lua"

	"github.com/luahost/luahost/luabind/internal/budget"
	"github.com/luahost/luahost/luabind/internal/laux"
	"github.com/luahost/luahost/luabind/internal/lstring"
)

// The sandbox's table library: Lua 5.1's insert,
// remove, concat and sort, bounded and interruptible. gopher-lua's
// versions refuse table.sort(t, nil), return nil from an empty remove and
// build concat's result by repeated appends on a value stack that grows
// 32 slots at a time.

// maxResults bounds how many values unpack and string.byte return: Lua
// 5.1's own limit of its C stack (LUAI_MAXCSTACK).
const maxResults = 8000

// pollEvery is how many steps of a builtin's loop pass between two polls
// of the budget's context.
const pollEvery = 4096

// poller charges a long-running builtin's steps to the callback's work
// budget and polls it, so that the budget interrupts the builtin as it
// interrupts Lua code.
type poller struct {
	L *lua.LState
	n int
}

func (p *poller) tick() {
	p.n++
	if p.n%pollEvery != 0 {
		return
	}
	// A step (a comparison, a move) is about an instruction's work.
	if ctx := p.L.Context(); ctx != nil && budget.Charge(ctx, pollEvery) {
		p.L.RaiseError("%s", ctx.Err().Error())
	}
}

// MaxStringSize is Options.MaxStringSize with its default applied.
func MaxStringSize(opt int) int {
	if opt <= 0 {
		return lstring.DefaultMaxSize
	}
	return opt
}

// installTable replaces gopher-lua's table functions in the table library
// tbl; maxSize bounds concat's result.
func installTable(L *lua.LState, tbl *lua.LTable, maxSize int) {
	tbl.RawSetString("insert", L.NewFunction(tableInsert))
	tbl.RawSetString("remove", L.NewFunction(tableRemove))
	tbl.RawSetString("sort", L.NewFunction(tableSort))
	tbl.RawSetString("concat", L.NewFunction(func(L *lua.LState) int { return tableConcat(L, maxSize) }))
	tbl.RawSetString("foreach", L.NewFunction(tableForeach))
	tbl.RawSetString("foreachi", L.NewFunction(tableForeachi))
	tbl.RawSetString("getn", L.NewFunction(tableGetn))
	tbl.RawSetString("maxn", L.NewFunction(tableMaxn))
}

// table.foreach(t, f) calls f(k, v) for every pair of t, in pairs order,
// and returns the first non-nil result f returns (Lua 5.1, deprecated).
func tableForeach(L *lua.LState) int {
	t := L.CheckTable(1)
	f := L.CheckFunction(2)
	for k, v := t.Next(lua.LNil); k != lua.LNil; k, v = t.Next(k) {
		if r := laux.CallOne(L, f, k, v); r != lua.LNil {
			L.Push(r)
			return 1
		}
	}
	return 0
}

// table.foreachi(t, f) calls f(i, t[i]) for i from 1 to #t and returns
// the first non-nil result f returns (Lua 5.1, deprecated).
func tableForeachi(L *lua.LState) int {
	t := L.CheckTable(1)
	f := L.CheckFunction(2)
	for i := 1; i <= laux.TableLen(t); i++ {
		if r := laux.CallOne(L, f, lua.LNumber(i), laux.RawGetInt(t, i)); r != lua.LNil {
			L.Push(r)
			return 1
		}
	}
	return 0
}

// table.maxn(t) is the largest positive numeric key of t, or 0: all of
// t's keys are looked at, as in Lua 5.1 (gopher-lua's looked at its
// array slice only: 0 for {[300000] = 1} and for {[1.5] = true}).
func tableMaxn(L *lua.LState) int {
	t := L.CheckTable(1)
	var most lua.LNumber
	t.ForEach(func(k, _ lua.LValue) {
		if n, ok := k.(lua.LNumber); ok && n > most {
			most = n
		}
	})
	L.Push(most)
	return 1
}

// table.insert(t, [pos,] value) inserts value at pos (default: after the
// last element), shifting up the elements from pos to #t, as Lua 5.1.5
// does for any pos: past #t+1 the value is stored there, and below 1 the
// elements from pos up move too.
func tableInsert(L *lua.LState) int {
	t := L.CheckTable(1)
	e := laux.TableLen(t) + 1
	switch L.GetTop() {
	case 2:
		t.RawSetInt(e, L.Get(2))
	case 3:
		pos := laux.CheckInt(L, 2)
		e = max(e, pos)
		p := poller{L: L}
		for i := e; i > pos; i-- {
			t.RawSetInt(i, laux.RawGetInt(t, i-1))
			p.tick()
		}
		t.RawSetInt(pos, L.Get(3))
	default:
		laux.Raise(L, "wrong number of arguments to 'insert'")
	}
	return 0
}

// table.remove(t [, pos]) removes and returns t[pos] (default: the last
// element), shifting down the elements after it. A pos outside 1..#t
// (and so any pos of an empty table) leaves t alone and returns nothing,
// as in Lua 5.1.5.
func tableRemove(L *lua.LState) int {
	t := L.CheckTable(1)
	e := laux.TableLen(t)
	pos := laux.OptInt(L, 2, e)
	if pos < 1 || pos > e {
		return 0
	}
	L.Push(laux.RawGetInt(t, pos))
	p := poller{L: L}
	for ; pos < e; pos++ {
		t.RawSetInt(pos, laux.RawGetInt(t, pos+1))
		p.tick()
	}
	t.RawSetInt(e, lua.LNil)
	return 1
}

// table.concat(t [, sep [, i [, j]]]) returns t[i]..sep..t[i+1]..sep..t[j]
// (numbers and strings only). The result's size is computed first: past
// maxSize it is refused before anything is built, and the result is
// built in one allocation.
func tableConcat(L *lua.LState, maxSize int) int {
	t := L.CheckTable(1)
	sep := laux.OptString(L, 2, "")
	i := laux.OptInt(L, 3, 1)
	j := laux.OptInt(L, 4, laux.TableLen(t))
	if i > j {
		L.Push(lua.LString(""))
		return 1
	}
	p := poller{L: L}
	piece := func(k int) string {
		switch v := laux.RawGetInt(t, k).(type) {
		case lua.LString:
			return string(v)
		case lua.LNumber:
			return laux.FormatNumber(v)
		}
		laux.Raise(L, fmt.Sprintf("invalid value (%s) at index %d in table for 'concat'", laux.RawGetInt(t, k).Type(), k))
		return ""
	}
	size := 0
	for k := i; ; k++ {
		size += len(piece(k))
		if k == j {
			break
		}
		size += len(sep)
		if size > maxSize {
			break
		}
		p.tick()
	}
	if size > maxSize {
		laux.Raise(L, fmt.Sprintf("table.concat: result too large (limit %d bytes)", maxSize))
	}
	if ctx := L.Context(); ctx != nil && budget.ChargeBytes(ctx, size) {
		L.RaiseError("%s", ctx.Err().Error())
	}
	var b strings.Builder
	b.Grow(size)
	for k := i; ; k++ {
		b.WriteString(piece(k))
		if k == j {
			break
		}
		b.WriteString(sep)
		p.tick()
	}
	L.Push(lua.LString(b.String()))
	return 1
}

// table.sort(t [, comp]) sorts t[1..#t] in place with Lua 5.1's
// algorithm (so equal elements end in the same order as there), using
// comp(a, b) (or a < b when comp is nil) as "a comes before b". An order
// function that is not one is reported as in Lua 5.1 ("invalid order
// function for sorting") instead of running past the array.
func tableSort(L *lua.LState) int {
	t := L.CheckTable(1)
	s := sorter{L: L, t: t, p: poller{L: L}}
	switch fn := L.Get(2).(type) {
	case *lua.LNilType:
	case *lua.LFunction:
		s.comp = fn
	default:
		L.TypeError(2, lua.LTFunction)
	}
	s.sort(1, laux.TableLen(t))
	return 0
}

type sorter struct {
	L    *lua.LState
	t    *lua.LTable
	comp *lua.LFunction
	p    poller
}

func (s *sorter) less(a, b lua.LValue) bool {
	s.p.tick()
	if s.comp == nil {
		return s.lessThan(a, b)
	}
	s.L.Push(s.comp)
	s.L.Push(a)
	s.L.Push(b)
	s.L.Call(2, 1)
	r := lua.LVAsBool(s.L.Get(-1))
	s.L.Pop(1)
	return r
}

// lessThan is a < b. Values that do not compare fail as in Lua 5.1,
// where the comparison runs inside sort: without a position.
func (s *sorter) lessThan(a, b lua.LValue) bool {
	switch x := a.(type) {
	case lua.LNumber:
		if y, ok := b.(lua.LNumber); ok {
			return x < y
		}
	case lua.LString:
		if y, ok := b.(lua.LString); ok {
			return x < y
		}
	}
	if a.Type() == b.Type() && s.L.GetMetaField(a, "__lt") != lua.LNil {
		return s.L.LessThan(a, b)
	}
	msg := "attempt to compare " + a.Type().String() + " with " + b.Type().String()
	if a.Type() == b.Type() {
		msg = "attempt to compare two " + a.Type().String() + " values"
	}
	s.L.Error(lua.LString(msg), 0)
	return false
}

func (s *sorter) get(i int) lua.LValue { return laux.RawGetInt(s.t, i) }

func (s *sorter) swap(i, j int) {
	a, b := s.get(i), s.get(j)
	s.t.RawSetInt(i, b)
	s.t.RawSetInt(j, a)
}

func (s *sorter) invalid() {
	laux.Raise(s.L, "invalid order function for sorting")
}

// sort sorts t[lo..up]: a quicksort on the median of three, recursing on
// the smaller part and looping on the larger, as Lua 5.1 does.
func (s *sorter) sort(lo, up int) {
	for lo < up {
		if s.less(s.get(up), s.get(lo)) {
			s.swap(lo, up)
		}
		if up-lo == 1 {
			return
		}
		mid := (lo + up) / 2
		if s.less(s.get(mid), s.get(lo)) {
			s.swap(mid, lo)
		} else if s.less(s.get(up), s.get(mid)) {
			s.swap(mid, up)
		}
		if up-lo == 2 {
			return
		}
		pivot := s.get(mid)
		s.swap(mid, up-1)
		// Invariant: t[lo] <= pivot == t[up-1] <= t[up].
		i, j := lo, up-1
		for {
			for i++; s.less(s.get(i), pivot); i++ {
				if i > up {
					s.invalid()
				}
			}
			for j--; s.less(pivot, s.get(j)); j-- {
				if j < lo {
					s.invalid()
				}
			}
			if j < i {
				break
			}
			s.swap(i, j)
		}
		s.swap(up-1, i)
		// t[lo..i-1] <= t[i] == pivot <= t[i+1..up]: recurse on the
		// smaller side, loop on the larger.
		if i-lo < up-i {
			s.sort(lo, i-1)
			lo = i + 1
		} else {
			s.sort(i+1, up)
			up = i - 1
		}
	}
}

// unpack(t [, i [, j]]) returns t[i], ..., t[j] (default 1 and #t): at
// most maxResults values, as in Lua 5.1 ("too many results to unpack").
// The value stack grows once, not a slot at a time.
func boundedUnpack(L *lua.LState) int {
	t := L.CheckTable(1)
	i := laux.OptInt(L, 2, 1)
	j := laux.OptInt(L, 3, laux.TableLen(t))
	if i > j {
		return 0
	}
	n := j - i + 1
	if n <= 0 || n > maxResults {
		laux.Raise(L, "too many results to unpack")
	}
	base := L.GetTop()
	L.SetTop(base + n)
	for k := range n {
		L.Replace(base+1+k, laux.RawGetInt(t, i+k))
	}
	return n
}
