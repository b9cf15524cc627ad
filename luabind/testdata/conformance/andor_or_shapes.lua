-- Proves `x = <field or call> or <expr>` assigned to an existing local
-- gives the first truthy operand, or the last operand, in every shape.
local y = {f = false, v = 7}
local function none() end
local x = "old"
x = y.a or 1
print("field or const", x)
x = "old"
x = y.f or nil
print("false or nil", x)
x = "old"
x = y.a or y.f
print("nil or false", x)
x = "old"
x = none() or y.a
print("call or field", x)
x = "old"
x = y.v or 1
print("truthy field", x)
x = "old"
x = y.a or y.b or y.v
print("chain of or", x)
x = "old"
x = none() or none() or false
print("all falsy", x)
