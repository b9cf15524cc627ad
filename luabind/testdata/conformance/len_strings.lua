-- Proves # of strings, of tables built by table.insert next to far keys,
-- and # through a variable, a field, a call and parentheses.
local s = "hello\0world"
print("string", #s, #"", #("x"):rep(10))
local t = {list = {1, 2, 3}}
local function get() return t.list end
print("field call paren", #t.list, #get(), #(t.list))
local far = {}
far[2 ^ 20] = true
table.insert(far, "a")
table.insert(far, "b")
print("insert next to far key", #far, far[1], far[2])
local m = {}
for i = 1, 50 do m[i] = i end
m[100000] = 1
m[#m + 1] = 51
print("append after far", #m, m[51])
