package gopherx

// Inst is one gopher-lua instruction. gopher-lua lays a 32-bit
// instruction out as opcode (6 bits) | A (8) | B (9) | C (9) from the
// top, and Bx, sBx in the low 18 bits: not the layout of reference Lua.
type Inst uint32

// Op returns the instruction's opcode (lua.OP_*).
func (i Inst) Op() int { return int(i >> 26) }

// A returns operand A.
func (i Inst) A() int { return int(i>>18) & 0xff }

// B returns operand B.
func (i Inst) B() int { return int(i & 0x1ff) }

// C returns operand C.
func (i Inst) C() int { return int(i>>9) & 0x1ff }

// Bx returns operand Bx.
func (i Inst) Bx() int { return int(i & 0x3ffff) }

// Sbx returns operand sBx.
func (i Inst) Sbx() int { return i.Bx() - (1<<18-1)>>1 }

// RKConstant is the bit of an RK operand that marks a constant index.
const RKConstant = 1 << 8
