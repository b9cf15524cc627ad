package lstring

import (
	"fmt"
	"math/bits"
	"strconv"
	"strings"

	lua "github.com/yuin/gopher-lua"

	"github.com/luahost/luahost/luabind/internal/budget"
	"github.com/luahost/luahost/luabind/internal/laux"
)

// DefaultMaxSize is the MaxSize used when Limits.MaxSize is zero: 16 MiB.
const DefaultMaxSize = 16 << 20

// Limits bounds what the string functions may build.
type Limits struct {
	// MaxSize is the largest string (in bytes) rep, gsub and format may
	// return. The default (zero) value is 16 MiB; a negative value also
	// means 16 MiB.
	MaxSize int
	// NumberString converts a number to the string that %s, gsub
	// replacements and the other string functions use for it. The
	// default (nil) is gopher-lua's conversion.
	NumberString func(lua.LNumber) string
}

func (lim Limits) maxSize() int {
	if lim.MaxSize <= 0 {
		return DefaultMaxSize
	}
	return lim.MaxSize
}

// library holds what the bounded functions of one Register call share.
type library struct {
	maxSize int
	number  func(lua.LNumber) string
}

// Register replaces find, match, gmatch, gsub, rep, format, byte, char,
// upper and lower in tbl (a state's `string` module table) with bounded
// versions that follow Lua 5.1. gfind, gopher-lua's
// alias of gmatch, is replaced too when tbl has it. Strings get their
// methods from this table, so ("x"):rep(n) is bounded as well.
//
// The pattern functions poll L's context (see [lua.LState.SetContext]) while
// they match, and raise its error, "context deadline exceeded" or "context
// canceled", when it is done. rep, gsub and format raise an error rather
// than build a string longer than lim.MaxSize; byte returns at most
// MaxResults values.
//
// Register must run on the goroutine that owns L.
func Register(L *lua.LState, tbl *lua.LTable, lim Limits) {
	lib := &library{maxSize: lim.maxSize(), number: lim.NumberString}
	if lib.number == nil {
		lib.number = lua.LNumber.String
	}
	tbl.RawSetString("find", L.NewFunction(lib.find))
	tbl.RawSetString("match", L.NewFunction(lib.match))
	gmatch := L.NewFunction(lib.gmatch)
	tbl.RawSetString("gmatch", gmatch)
	if tbl.RawGetString("gfind") != lua.LNil {
		tbl.RawSetString("gfind", gmatch)
	}
	tbl.RawSetString("gsub", L.NewFunction(lib.gsub))
	tbl.RawSetString("rep", L.NewFunction(lib.rep))
	tbl.RawSetString("format", L.NewFunction(lib.formatBounded))
	tbl.RawSetString("byte", L.NewFunction(lib.byte))
	tbl.RawSetString("char", L.NewFunction(lib.char))
	tbl.RawSetString("upper", L.NewFunction(upper))
	tbl.RawSetString("lower", L.NewFunction(lower))
	tbl.RawSetString("sub", L.NewFunction(sub))
	tbl.RawSetString("len", L.NewFunction(length))
	tbl.RawSetString("reverse", L.NewFunction(reverse))
}

// string.rep(s, n)
//
// rep returns n copies of s, or "" when n < 1, as gopher-lua does. It raises
// "string.rep: result too large (N bytes, limit M)" at once, before
// allocating, when the result would be longer than Limits.MaxSize. Cost:
// one allocation of the result's size.
func (lib *library) rep(L *lua.LState) int {
	s := laux.CheckString(L, 1)
	n := laux.CheckInt(L, 2)
	if n <= 0 || s == "" {
		L.Push(lua.LString(""))
		return 1
	}
	if n > lib.maxSize/len(s) {
		hi, lo := bits.Mul64(uint64(len(s)), uint64(n))
		size := strconv.FormatUint(lo, 10)
		if hi != 0 {
			size = "more than 18446744073709551615"
		}
		laux.Raise(L, fmt.Sprintf("string.rep: result too large (%s bytes, limit %d)", size, lib.maxSize))
	}
	charge(L, len(s)*n)
	L.Push(lua.LString(strings.Repeat(s, n)))
	return 1
}

// charge charges building n bytes to L's work budget, and raises the
// budget's stop when that stopped the callback.
func charge(L *lua.LState, n int) {
	if ctx := L.Context(); ctx != nil && budget.ChargeBytes(ctx, n) {
		L.RaiseError("%s", ctx.Err().Error())
	}
}

// raiseTooLarge raises the error of a function whose result would pass the
// size limit.
func (lib *library) raiseTooLarge(L *lua.LState, name string) {
	laux.Raise(L, fmt.Sprintf("string.%s: result too large (limit %d bytes)", name, lib.maxSize))
}
