-- Proves a table constructor whose last field is keyed takes one value
-- from a call or ... there, as Lua 5.1: gopher-lua spread it over the
-- positional items ({"x", a = f()} had f's first result at [2]).
local function h() return "h1", "h2" end
local t = {"x", a = h()}
print("keyed call last", #t, t[2], t.a)
local t2 = {0, h(), a = h()}
print("middle call, keyed last", #t2, t2[2], t2[3], t2.a)
local t3 = {a = 1, "x", b = h()}
print("keyed around", #t3, t3[1], t3[2], t3.b)
local function v(...) return {"x", a = ...} end
local t4 = v("v1", "v2")
print("keyed vararg last", #t4, t4[2], t4.a)
local t5 = {h(), a = 0}
print("call then keyed", #t5, t5[1], t5[2], t5.a)
local t6 = {a = h()}
print("keyed only", #t6, t6.a)
local t7 = {"x", h()}
print("positional call last", #t7, t7[2], t7[3])
local t8 = {"x", ["k"] = h()}
print("bracket key call last", #t8, t8[2], t8.k)
local t9 = {"x", [1 + 1] = h()}
print("computed key call last", #t9, t9[2])
