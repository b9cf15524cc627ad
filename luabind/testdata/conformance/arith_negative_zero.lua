-- Proves -0 from runtime arithmetic stays -0, as Lua 5.1 prints it and
-- as 1/x shows: multiplication, division, unary minus and %.
local function mul(a, b) return a * b end
local function div(a, b) return a / b end
local function neg(a) return -a end
local function sub(a, b) return a - b end
local function add(a, b) return a + b end
local function mod(a, b) return a % b end
print("mul", mul(0, -1), 1 / mul(0, -1), mul(-0.5, 0))
print("div", div(0, -5), 1 / div(0, -5))
print("neg", neg(0), 1 / neg(0))
print("sub", sub(0, 0), 1 / sub(0, 0))
print("add", add(neg(0), neg(0)), 1 / add(neg(0), neg(0)))
print("mod", mod(-4, 2), mod(4, -2))
print("tostring", tostring(neg(0)), neg(0) .. "")
print("format", string.format("%g %.1f", neg(0), neg(0)))
print("compare", neg(0) == 0, neg(0) < 0)
print("floor ceil", math.floor(neg(0.5)), math.ceil(neg(0.5)), 1 / math.ceil(neg(0.5)))
