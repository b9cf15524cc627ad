-- Proves a queue built with table.insert and table.remove at both ends
-- keeps # right through many operations, also next to a far key.
local q = {[1000000] = "far"}
for i = 1, 10 do table.insert(q, i) end
for i = 1, 4 do table.remove(q, 1) end
table.insert(q, 1, "front")
print("queue", #q, q[1], q[#q], table.concat(q, ","))
local s = {}
for i = 1, 100 do s[#s + 1] = i end
for i = 1, 60 do s[#s] = nil end
print("stack", #s, s[#s])
