package luaerr

import (
	"strings"

	lua "github.com/yuin/gopher-lua"

	"github.com/luahost/luahost/luabind/internal/gopherx"
)

// Reading gopher-lua's bytecode to name the culprit of a runtime error,
// the way reference Lua does: the register an instruction failed on is
// traced back to the instruction that last set it (a local's own
// register, GETGLOBAL, GETTABLE with a constant key, GETUPVAL, SELF,
// LOADK of a string). gopher-lua lays a 32-bit instruction out as
// opcode (6 bits) | A (8) | B (9) | C (9) from the top, and Bx, sBx in
// the low 18 bits: not the layout of reference Lua.

// culprit is how an error names a value: kind is "local", "global",
// "field", "upvalue", "method" or "constant"; the zero culprit names
// nothing.
type culprit struct {
	kind, name string
}

// String returns " (local 'boss')", or "" for the zero culprit.
func (c culprit) String() string {
	if c.kind == "" {
		return ""
	}
	return " (" + c.kind + " '" + c.name + "')"
}

// localName returns the name of the local variable held in register reg
// at pc, or "". gopher-lua records a local's live range as [StartPc,
// EndPc], in declaration order.
func localName(p *lua.FunctionProto, reg, pc int) string {
	for _, l := range p.DbgLocals {
		if l.StartPc > pc {
			break
		}
		if pc <= l.EndPc {
			if reg == 0 {
				return l.Name
			}
			reg--
		}
	}
	return ""
}

// objName names what register reg held at instruction pc of p.
func objName(p *lua.FunctionProto, pc, reg int) culprit {
	// Names in parentheses are the compile step's temporaries (and the
	// for loops' hidden locals): what they copied is named instead.
	if name := localName(p, reg, pc); name != "" && !strings.HasPrefix(name, "(") {
		return culprit{"local", name}
	}
	setter := findSetReg(p, pc, reg)
	if setter < 0 {
		return culprit{}
	}
	i := gopherx.Inst(p.Code[setter])
	switch i.Op() {
	case lua.OP_MOVE, lua.OP_MOVEN:
		if i.B() < i.A() {
			return objName(p, setter, i.B())
		}
	case lua.OP_GETGLOBAL:
		return culprit{"global", constantString(p, i.Bx())}
	case lua.OP_GETTABLE, lua.OP_GETTABLEKS:
		return culprit{"field", keyName(p, setter, i.C())}
	case lua.OP_SELF:
		return culprit{"method", keyName(p, setter, i.C())}
	case lua.OP_GETUPVAL:
		if i.B() < len(p.DbgUpvalues) {
			return culprit{"upvalue", p.DbgUpvalues[i.B()]}
		}
	case lua.OP_LOADK:
		if s, ok := p.Constants[i.Bx()].(lua.LString); ok {
			return culprit{"constant", string(s)}
		}
	}
	return culprit{}
}

// keyName names the key RK(rk) of a table access at pc as reference Lua
// 5.4 does: a constant string or a register loaded with one; "integer
// index" for a small integer constant (t[1]); else "?".
func keyName(p *lua.FunctionProto, pc, rk int) string {
	if rk&gopherx.RKConstant != 0 {
		switch k := p.Constants[rk&^gopherx.RKConstant].(type) {
		case lua.LString:
			return string(k)
		case lua.LNumber:
			if k >= 0 && k <= 255 && k == lua.LNumber(int(k)) {
				return "integer index"
			}
		}
		return "?"
	}
	if c := objName(p, pc, rk); c.kind == "constant" {
		return c.name
	}
	return "?"
}

// constantString returns constant k of p as a string, or "?".
func constantString(p *lua.FunctionProto, k int) string {
	if s, ok := p.Constants[k].(lua.LString); ok {
		return string(s)
	}
	return "?"
}

// findSetReg returns the pc of the last instruction before lastpc that set
// register reg, or -1 when none did or the one that did ran only on a
// branch (code a jump could skip).
func findSetReg(p *lua.FunctionProto, lastpc, reg int) int {
	setreg, jmptarget := -1, 0
	for pc := 0; pc < lastpc; pc++ {
		i := gopherx.Inst(p.Code[pc])
		a := i.A()
		change := false
		switch i.Op() {
		case lua.OP_LOADNIL:
			change = a <= reg && reg <= i.B()
		case lua.OP_TFORLOOP:
			change = reg >= a+2
		case lua.OP_CALL, lua.OP_TAILCALL:
			change = reg >= a
		case lua.OP_VARARG:
			change = reg >= a && (i.B() == 0 || reg <= a+i.B()-2)
		case lua.OP_SELF:
			change = reg == a || reg == a+1
		case lua.OP_FORLOOP:
			change = reg >= a && reg <= a+3
		case lua.OP_JMP:
			if dest := pc + 1 + i.Sbx(); dest <= lastpc && dest > jmptarget {
				jmptarget = dest
			}
		case lua.OP_LOADBOOL:
			if i.C() != 0 && pc+2 <= lastpc && pc+2 > jmptarget {
				jmptarget = pc + 2
			}
			change = reg == a
		case lua.OP_CLOSURE:
			change = reg == a
			// The instructions after a CLOSURE name its upvalues; they
			// are not executed.
			pc += int(p.FunctionPrototypes[i.Bx()].NumUpvalues)
		case lua.OP_SETGLOBAL, lua.OP_SETUPVAL, lua.OP_SETTABLE, lua.OP_SETTABLEKS,
			lua.OP_EQ, lua.OP_LT, lua.OP_LE, lua.OP_TEST, lua.OP_RETURN,
			lua.OP_SETLIST, lua.OP_CLOSE, lua.OP_NOP:
		default:
			change = reg == a
		}
		if change {
			setreg = pc
			if pc < jmptarget {
				setreg = -1
			}
		}
	}
	return setreg
}

// isMethodCall reports whether the function called by the CALL or
// TAILCALL at pc of p was fetched by SELF (obj:name(...)), whose self
// argument reference Lua does not count.
func isMethodCall(p *lua.FunctionProto, pc int) bool {
	i := gopherx.Inst(p.Code[pc])
	if i.Op() != lua.OP_CALL && i.Op() != lua.OP_TAILCALL {
		return false
	}
	setter := findSetReg(p, pc, i.A())
	return setter >= 0 && gopherx.Inst(p.Code[setter]).Op() == lua.OP_SELF
}

// CallName returns how the call at pc of p names the function it calls,
// as Lua 5.1's debug.getinfo gives them: its name and what the name is
// ("global", "local", "method", "field", "upvalue"), or "" and "" for an
// instruction that is not a call or a function it cannot name. A field's
// name is its key when the key is a string constant, else "?".
func CallName(p *lua.FunctionProto, pc int) (name, namewhat string) {
	if pc < 0 || pc >= len(p.Code) {
		return "", ""
	}
	i := gopherx.Inst(p.Code[pc])
	switch i.Op() {
	case lua.OP_CALL, lua.OP_TAILCALL:
	case lua.OP_TFORLOOP:
		// A generic for's iterator is its hidden local, whose scope
		// gopher-lua ends before the loop's instruction.
		return "(for generator)", "local"
	default:
		return "", ""
	}
	c := objName(p, pc, i.A())
	switch c.kind {
	case "", "constant":
		return "", ""
	case "field", "method":
		if c.name == "integer index" {
			c.name = "?"
		}
	}
	return c.name, c.kind
}
