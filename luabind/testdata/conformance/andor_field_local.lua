-- Proves `x = <field> and <expr>` assigned to an existing local takes the
-- field's falsy value (nil or false) instead of leaving the local
-- unchanged, and the right operand when the field is truthy.
local y = {t = true, f = false, n = 0, s = ""}
local x = "old"
x = y.a and 1
print("nil field", x)
x = "old"
x = y.f and 1
print("false field", x)
x = "old"
x = y.t and 1
print("true field", x)
x = "old"
x = y.n and "zero is true"
print("zero field", x)
x = "old"
x = y.s and "empty is true"
print("empty string field", x)
x = "old"
x = y.a and y.b
print("nil field, field", x)
x = "old"
x = y.f and y.t
print("false field, field", x)
local z = 5
z = y.missing and z + 1
print("self reference", z)
