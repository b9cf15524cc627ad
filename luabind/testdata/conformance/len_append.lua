-- Proves building arrays with t[#t+1] = v and table.insert stays dense
-- next to unrelated sparse and string keys, as in Lua 5.1.
local t = {name = "list", [500000] = "far"}
for i = 1, 20 do t[#t + 1] = i end
print("appended", #t, t[20], t[21])
local u = {[99999] = true}
for i = 1, 5 do table.insert(u, i * i) end
print("insert", #u, u[5], table.concat(u, ","))
local count = 0
for _ in ipairs(t) do count = count + 1 end
print("ipairs", count)
local s = {}
s[1.5] = "float"
s[-1] = "negative"
s[0] = "zero"
s[#s + 1] = "first"
print("odd keys", #s, s[1])
