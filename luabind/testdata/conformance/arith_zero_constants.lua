-- Proves that division by a zero numeral is done when the chunk runs, as
-- Lua 5.1 does (it folds no division by zero), with the zero constant a
-- function shares among its zeros: Lua 5.1 keeps one constant for 0 and
-- -0, the first written, so after a -0 in the same function 1/0 is -inf.
local nz = -0
print("after -0", 1 / 0, -1 / 0, 2 / (1 - 1), nz)
local function fresh() return 1 / 0, -1 / 0, 1 / -0 end
print("own function", fresh())
local function zero_first() local z = 0 return 1 / -0, z end
print("zero first", zero_first())
local function nested() return -(1 / 0), (1 / 0) * 2, 1 / 0 + 1 end
print("nested", nested())
local function nan() local n = 0 / 0 return n ~= n end
print("nan", nan())
local t = {1 / 0, [1 / 0 == 1 / 0 and "k" or "x"] = true}
print("in a table", t[1], t.k)
local function mod_first() local m = 5 % 0 local z = -0 return m ~= m, z end
print("mod by zero", mod_first())
local function nan_first() local n = 0 * 1e999 local z = -0 return n ~= n, z end
print("nan operands", nan_first())
local function folded() local f = 2 * 3 - 6 local z = -0 return f, z end
print("folded zero", folded())
