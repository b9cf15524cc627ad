-- Proves nested and/or mixes assigned to an existing local follow Lua 5.1
-- when inner operands are fields or calls that are falsy.
local y = {t = 1, f = false}
local function none() end
local x = "old"
x = y.a and y.b and 1
print("and and", x)
x = "old"
x = y.t and y.a and 1
print("and and middle nil", x)
x = "old"
x = y.a and 1 or 2
print("ternary false", x)
x = "old"
x = y.t and y.f or "else"
print("ternary falsy then", x)
x = "old"
x = (y.a or y.f) and 1
print("or then and", x)
x = "old"
x = y.a and (y.b or 2)
print("and of or", x)
x = "old"
x = (y.a and 1) or (y.f and 2)
print("or of ands", x)
x = "old"
x = none() and none() or none()
print("calls", x)
x = "old"
x = y.t and (y.a and 1)
print("and of and", x)
x = "old"
x = not y.a and y.a
print("not and", x)
