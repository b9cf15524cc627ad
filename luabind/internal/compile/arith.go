package compile

import (
	"fmt"
	"math"
	"strconv"
	"strings"

	lua "github.com/yuin/gopher-lua"
	"github.com/yuin/gopher-lua/ast"

	"github.com/luahost/luahost/luabind/internal/laux"
	"github.com/luahost/luahost/luabind/internal/libm"
)

// modulo rewrites a % b into a call of an arithSite, or into its value
// when both operands are numerals. gopher-lua computes % with fmod and a
// sign fix, which differs from Lua 5.1's a - floor(a/b)*b for floats:
// 5 % 0.1 was 0.1 (Lua: 0), and x % inf was x (Lua: nan).
func (rw *rewriter) modulo(e *ast.ArithmeticOpExpr) ast.Expr {
	site := &arithSite{event: "__mod", fn: luaMod, descs: [2]string{rw.describe(e.Lhs), rw.describe(e.Rhs)}}
	lhs, rhs := rw.expr(e.Lhs), rw.expr(e.Rhs)
	// Folded as Lua 5.1 folds: never by zero, never into NaN
	// (foldAsLua51).
	if a, ok := numeral(lhs); ok {
		if b, ok := numeral(rhs); ok && b != 0 && !math.IsNaN(luaMod(a, b)) {
			return at(&ast.NumberExpr{Value: numeralText(luaMod(a, b))}, e)
		}
	}
	return rw.operatorCall(site, lhs, rhs, e)
}

// power rewrites a ^ b into a call of an arithSite, or into its value
// when both operands are constants. gopher-lua computes ^ (and folds it)
// with Go's math.Pow, which differs from C's pow visibly: 1.0001^10000
// differed in the 12th digit; libm's is C's. A power of the numeral 2
// stays gopher-lua's instruction: Go's Pow(x, 2) is x*x rounded once, as
// C's is, and the square is the power scripts use most.
func (rw *rewriter) power(e *ast.ArithmeticOpExpr) ast.Expr {
	if b, ok := numeral(e.Rhs); ok && b == 2 {
		if _, ok := numeral(e.Lhs); !ok {
			e.Lhs, e.Rhs = rw.expr(e.Lhs), rw.expr(e.Rhs)
			return e
		}
	}
	site := &arithSite{event: "__pow", fn: libm.Pow, descs: [2]string{rw.describe(e.Lhs), rw.describe(e.Rhs)}}
	lhs, rhs := rw.expr(e.Lhs), rw.expr(e.Rhs)
	// Folded when gopher-lua would fold it (a unary minus on a numeral
	// too: (-0)^-1 is -inf), but never into NaN, as Lua 5.1 folds.
	if folds(lhs) && folds(rhs) {
		a, okA := foldValue(lhs)
		b, okB := foldValue(rhs)
		if r := libm.Pow(a, b); okA && okB && !math.IsNaN(r) {
			return at(&ast.NumberExpr{Value: numeralText(r)}, e)
		}
	}
	return rw.operatorCall(site, lhs, rhs, e)
}

// operatorCall returns the call of site that stands for the operation e
// on lhs and rhs.
func (rw *rewriter) operatorCall(site *arithSite, lhs, rhs ast.Expr, e *ast.ArithmeticOpExpr) ast.Expr {
	return rw.helperCall(site.call, []ast.Expr{oneValue(lhs), oneValue(rhs)}, e)
}

// luaMod is Lua 5.1's luai_nummod. The explicit conversion keeps the
// product from being fused into the subtraction, as C does not fuse it.
func luaMod(a, b float64) float64 {
	return a - float64(math.Floor(a/b)*b)
}

// arithSite is one % or ^ operator of a script: Lua 5.1's arithmetic
// on numbers and numeric strings (fn), else the metamethod event of the
// left operand or of the right, else "attempt to perform arithmetic on a
// nil value (local 'x')" naming the first operand that is not a number.
type arithSite struct {
	event string
	fn    func(a, b float64) float64
	descs [2]string
}

func (s *arithSite) call(L *lua.LState) int {
	a, b := L.Get(1), L.Get(2)
	x, okA := laux.ArithOperand(a)
	y, okB := laux.ArithOperand(b)
	if okA && okB {
		L.Push(lua.LNumber(s.fn(x, y)))
		return 1
	}
	mm := operandMeta(L, a, s.event)
	if mm == lua.LNil {
		mm = operandMeta(L, b, s.event)
	}
	if mm == lua.LNil {
		bad, desc := a, s.descs[0]
		if okA {
			bad, desc = b, s.descs[1]
		}
		msg := fmt.Sprintf("attempt to perform arithmetic on a %s value", bad.Type())
		if desc != "" {
			msg += " (" + desc + ")"
		}
		L.RaiseError("%s", msg)
	}
	L.Push(mm)
	L.Push(a)
	L.Push(b)
	L.Call(2, 1)
	return 1
}

// operandMeta returns the metamethod event of an operand, but not the
// strings' own arithmetic metamethods: they only convert numeric
// strings, which the site converts itself, and a string that is not a
// number is Lua 5.1's "attempt to perform arithmetic on a string value".
// One a script put in the strings' metatable is called.
func operandMeta(L *lua.LState, v lua.LValue, event string) lua.LValue {
	if mm := L.GetMetaField(v, event); !laux.IsStringArith(L, mm) {
		return mm
	}
	return lua.LNil
}

// numeral returns the value of a number literal, read as Lua 5.1 reads
// it.
func numeral(e ast.Expr) (float64, bool) {
	n, ok := e.(*ast.NumberExpr)
	if !ok {
		return 0, false
	}
	return laux.ToNumber(n.Value)
}

// numeralText spells f so that gopher-lua's compiler reads it back
// exactly: the shortest decimal that round-trips, "inf" and "nan".
func numeralText(f float64) string {
	switch {
	case math.IsInf(f, 1):
		return "inf"
	case math.IsInf(f, -1):
		return "-inf"
	case math.IsNaN(f):
		return "nan"
	}
	return strconv.FormatFloat(f, 'g', -1, 64)
}

// number rewrites a number literal into the spelling gopher-lua reads as
// Lua 5.1 reads the original: gopher-lua read 0xffffffffffffffff and
// 2e308 as nan (its integer and float parsers overflowed) and 00012 as
// octal 10.
func number(e *ast.NumberExpr) {
	if f, ok := laux.ToNumber(e.Value); ok {
		e.Value = numeralText(f)
	}
}

// respellHexExponents returns src with every hexadecimal numeral that has
// a binary exponent (0x10p1, which Lua 5.1 reads with C's strtod as 32)
// written in decimal: gopher-lua's lexer stops such a numeral at the "p"
// and fails. src has passed CheckSyntax; other text is left as it is.
func respellHexExponents(src string) string {
	if !strings.ContainsAny(src, "pP") || !strings.ContainsAny(src, "xX") {
		return src
	}
	var b strings.Builder
	lx := lexer{src: src, line: 1}
	last := 0
	for {
		tok, err := lx.next()
		if err != nil || tok.kind == tEOF {
			break
		}
		if tok.kind != tNumber || !strings.ContainsAny(tok.text, "pP") || !strings.ContainsAny(tok.text, "xX") {
			continue
		}
		f, ok := laux.ToNumber(tok.text)
		if !ok {
			continue
		}
		start := lx.pos - len(tok.text)
		b.WriteString(src[last:start])
		b.WriteString(numeralText(f))
		last = lx.pos
	}
	if last == 0 {
		return src
	}
	b.WriteString(src[last:])
	return b.String()
}

// negate rewrites -e into a call of an unmSite, unless e is a constant
// expression that gopher-lua folds, as Lua 5.1 does. gopher-lua calls a
// __unm metamethod with the operand alone, where Lua 5.1 passes it twice
// (a, a); a numeric operand costs a Go call more than gopher-lua's own
// instruction.
func (rw *rewriter) negate(e *ast.UnaryMinusOpExpr) ast.Expr {
	desc := rw.describe(e.Expr)
	if s, ok := e.Expr.(*ast.StringExpr); ok {
		desc = "constant '" + s.Value + "'"
	}
	operand := rw.expr(e.Expr)
	if folds(operand) {
		e.Expr = operand
		return e
	}
	site := &unmSite{desc: desc}
	return rw.helperCall(site.call, []ast.Expr{oneValue(operand)}, e)
}

// folds reports whether gopher-lua's compiler folds e into a constant:
// a numeral, or arithmetic or a unary minus on such.
func folds(e ast.Expr) bool {
	switch x := e.(type) {
	case *ast.NumberExpr:
		return true
	case *ast.UnaryMinusOpExpr:
		return folds(x.Expr)
	case *ast.ArithmeticOpExpr:
		return folds(x.Lhs) && folds(x.Rhs)
	}
	return false
}

// unmSite is one unary minus of a script: Lua 5.1's negation of a number
// or a numeric string, else the operand's __unm called with (a, a), else
// "attempt to perform arithmetic on a nil value (local 'x')".
type unmSite struct {
	desc string
}

func (s *unmSite) call(L *lua.LState) int {
	a := L.Get(1)
	if n, ok := a.(lua.LNumber); ok {
		L.Push(-n)
		return 1
	}
	if x, ok := laux.ArithOperand(a); ok {
		L.Push(lua.LNumber(-x))
		return 1
	}
	mm := L.GetMetaField(a, "__unm")
	if _, isString := a.(lua.LString); isString || mm == lua.LNil {
		msg := fmt.Sprintf("attempt to perform arithmetic on a %s value", a.Type())
		if s.desc != "" {
			msg += " (" + s.desc + ")"
		}
		L.RaiseError("%s", msg)
	}
	L.Push(mm)
	L.Push(a)
	L.Push(a)
	L.Call(2, 1)
	return 1
}

// foldAsLua51 keeps gopher-lua from folding arithmetic on numerals that
// Lua 5.1 leaves to the running chunk: a division by zero, and an
// operation whose result is NaN. Lua 5.1 then takes the operands from the
// function's constants, where it keeps one constant for 0 and -0, the
// first the function writes (after a -0, 1/0 is -inf), as gopher-lua's
// constants do. One operand, not a zero when the other is one, becomes a
// placeholder constant bound to its value, which gopher-lua does not
// fold; the other stays a numeral.
func (rw *rewriter) foldAsLua51(e *ast.ArithmeticOpExpr) {
	if !folds(e.Lhs) || !folds(e.Rhs) {
		return
	}
	a, okA := foldValue(e.Lhs)
	b, okB := foldValue(e.Rhs)
	if !okA || !okB {
		return
	}
	if r, _ := foldValue(e); !math.IsNaN(r) && (e.Operator != "/" || b != 0) {
		return
	}
	if a == 0 && b != 0 {
		e.Rhs = rw.placeholder(lua.LNumber(b), e.Rhs)
		return
	}
	e.Lhs = rw.placeholder(lua.LNumber(a), e.Lhs)
}

// foldValue returns the value gopher-lua folds e (folds(e)) into.
func foldValue(e ast.Expr) (float64, bool) {
	switch x := e.(type) {
	case *ast.NumberExpr:
		f, err := strconv.ParseFloat(x.Value, 64)
		return f, err == nil
	case *ast.UnaryMinusOpExpr:
		f, ok := foldValue(x.Expr)
		return -f, ok
	case *ast.ArithmeticOpExpr:
		a, okA := foldValue(x.Lhs)
		b, okB := foldValue(x.Rhs)
		if !okA || !okB {
			return 0, false
		}
		switch x.Operator {
		case "+":
			return a + b, true
		case "-":
			return a - b, true
		case "*":
			return a * b, true
		case "/":
			return a / b, true
		case "^":
			return libm.Pow(a, b), true
		}
	}
	return 0, false
}
