package compile

import (
	"fmt"
	"unsafe"

	lua "github.com/yuin/gopher-lua"
	"github.com/yuin/gopher-lua/ast"

	"github.com/luahost/luahost/luabind/internal/budget"
	"github.com/luahost/luahost/luabind/internal/laux"
)

// concat rewrites the chain a .. b .. c (right-associative, as the parser
// builds it) into one call of a concatSite with the operands as
// arguments; a parenthesized chain on the left is a call of its own, as
// it is a concatenation of its own in Lua 5.1.
func (rw *rewriter) concat(e *ast.StringConcatOpExpr) ast.Expr {
	var operands []ast.Expr
	var cur ast.Expr = e
	for {
		c, ok := cur.(*ast.StringConcatOpExpr)
		if !ok {
			operands = append(operands, cur)
			break
		}
		operands = append(operands, c.Lhs)
		cur = c.Rhs
	}
	site := &concatSite{max: rw.maxString, descs: make([]string, len(operands))}
	for i, op := range operands {
		site.descs[i] = rw.describe(op)
		operands[i] = rw.expr(op)
	}
	// A call or ... as the last operand stands for its first value only.
	oneValue(operands[len(operands)-1])
	// Lua 5.1 reports a failed concatenation at the line where its last
	// operand ends.
	last := operands[len(operands)-1]
	pos := &ast.Node{}
	pos.SetLine(max(last.Line(), last.LastLine(), e.Line()))
	pos.SetLastLine(pos.Line())
	return rw.helperCall(site.call, operands, pos)
}

// describe names an operand as reference Lua's error messages do:
// "local 'x'", "upvalue 'x'", "global 'x'", "field 'x'", or "" when the
// operand is not a variable.
func (rw *rewriter) describe(e ast.Expr) string {
	switch e := e.(type) {
	case *ast.IdentExpr:
		return rw.kind(e.Value) + " '" + e.Value + "'"
	case *ast.AttrGetExpr:
		if k, ok := e.Key.(*ast.StringExpr); ok {
			return "field '" + k.Value + "'"
		}
	}
	return ""
}

// concatSite is the bounded concatenation of one chain of .. in a script.
// It concatenates its arguments as Lua 5.1's .. does: strings and numbers
// (numbers formatted by formatNumber) are joined; any other operand is
// handled by a __concat metamethod of either side of it, pairwise from
// the right; without one it raises "attempt to concatenate a nil value
// (local 'name')". A result longer than max bytes is refused before
// anything is allocated.
type concatSite struct {
	max   int
	descs []string
}

func (c *concatSite) call(L *lua.LState) int {
	n := L.GetTop()
	total := 0
	var scratch [32]byte
	for i := 1; i <= n; i++ {
		switch v := L.Get(i).(type) {
		case lua.LString:
			total += len(v)
		case lua.LNumber:
			total += len(laux.AppendNumber(scratch[:0], v))
		default:
			return c.slow(L, n)
		}
		if total > c.max {
			c.tooLarge(L)
		}
	}
	c.charge(L, total)
	b := make([]byte, 0, total)
	for i := 1; i <= n; i++ {
		switch v := L.Get(i).(type) {
		case lua.LString:
			b = append(b, v...)
		case lua.LNumber:
			b = laux.AppendNumber(b, v)
		}
	}
	L.Push(lua.LString(unsafe.String(unsafe.SliceData(b), len(b))))
	return 1
}

// charge charges building n bytes to the callback's work budget; short
// results (most) charge nothing.
func (c *concatSite) charge(L *lua.LState, n int) {
	if n < budget.BytesPerWork {
		return
	}
	if ctx := L.Context(); ctx != nil && budget.ChargeBytes(ctx, n) {
		L.RaiseError("%s", ctx.Err().Error())
	}
}

func (c *concatSite) tooLarge(L *lua.LState) {
	L.RaiseError("string concatenation: result too large (limit %d bytes)", c.max)
}

// slow concatenates the n arguments when some of them are neither
// strings nor numbers, the way Lua 5.1's luaV_concat walks its operands:
// from the right, joining the longest run of strings and numbers, or
// calling __concat on the top two values.
func (c *concatSite) slow(L *lua.LState, n int) int {
	vals := make([]lua.LValue, n)
	descs := make([]string, n)
	for i := range vals {
		vals[i] = L.Get(i + 1)
		descs[i] = c.descs[i]
	}
	for top := n; top > 1; {
		a, b := vals[top-2], vals[top-1]
		if !isStringOrNumber(a) || !isStringOrNumber(b) {
			mm := L.GetMetaField(a, "__concat")
			if mm == lua.LNil {
				mm = L.GetMetaField(b, "__concat")
			}
			if mm == lua.LNil {
				bad, desc := a, descs[top-2]
				if isStringOrNumber(a) {
					bad, desc = b, descs[top-1]
				}
				c.concatError(L, bad, desc)
			}
			L.Push(mm)
			L.Push(a)
			L.Push(b)
			L.Call(2, 1)
			vals[top-2], descs[top-2] = L.Get(-1), ""
			L.Pop(1)
			top--
			continue
		}
		first, size := top-1, 0
		for first > 0 && isStringOrNumber(vals[first-1]) {
			first--
		}
		var scratch [32]byte
		for _, v := range vals[first:top] {
			if s, ok := v.(lua.LString); ok {
				size += len(s)
			} else {
				size += len(laux.AppendNumber(scratch[:0], v.(lua.LNumber)))
			}
			if size > c.max {
				c.tooLarge(L)
			}
		}
		c.charge(L, size)
		buf := make([]byte, 0, size)
		for _, v := range vals[first:top] {
			if s, ok := v.(lua.LString); ok {
				buf = append(buf, s...)
			} else {
				buf = laux.AppendNumber(buf, v.(lua.LNumber))
			}
		}
		vals[first], descs[first] = lua.LString(buf), ""
		top = first + 1
	}
	L.Push(vals[0])
	return 1
}

func (c *concatSite) concatError(L *lua.LState, bad lua.LValue, desc string) {
	msg := fmt.Sprintf("attempt to concatenate a %s value", bad.Type())
	if desc != "" {
		msg += " (" + desc + ")"
	}
	L.RaiseError("%s", msg)
}

func isStringOrNumber(v lua.LValue) bool {
	switch v.(type) {
	case lua.LString, lua.LNumber:
		return true
	}
	return false
}
