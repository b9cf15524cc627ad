-- Proves and/or in local declarations, returns, arguments and table
-- constructors give the falsy operand, as Lua 5.1 does.
local y = {f = false}
local a = y.a and 1
local b = y.f and 1
print("declaration", a, b)
local c, d = y.a and 1, y.f or y.a
print("declaration list", c, d)
local function r() return y.a and 1 end
print("return", r())
print("argument", y.a and 1, y.f and 1)
local t = {y.a and 1, y.f and 2, k = y.a and 3}
print("constructor", t[1], t[2], t.k)
print("select count", select("#", y.a and 1))
