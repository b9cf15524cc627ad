-- Proves `x = t[k] and <expr>` (a bracketed index with a string, number,
-- variable or computed key) assigned to an existing local takes the
-- falsy value.
local y = {[1] = false, [2] = "two"}
local k = "a"
local x = "old"
x = y["a"] and 1
print("string key", x)
x = "old"
x = y[1] and 1
print("number key false", x)
x = "old"
x = y[2] and 1
print("number key truthy", x)
x = "old"
x = y[k] and 1
print("variable key", x)
x = "old"
x = y[k .. "b"] and 1
print("computed key", x)
x = "old"
x = y[3] and y[3][1] or "guarded"
print("or fallback", x)
local grid = {{}, {false}}
x = "old"
x = grid[2][1] and 1
print("nested index", x)
