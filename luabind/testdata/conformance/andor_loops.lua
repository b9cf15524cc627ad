-- Proves reassigning a local with and/or over fields inside loops (for,
-- while, repeat) resets it on every falsy step.
local data = {{v = 1}, {}, {v = 3}, {v = false}}
local out = {}
local cur = "start"
for i = 1, #data do
  cur = data[i].v and data[i].v * 10
  out[#out + 1] = tostring(cur)
end
print("for", table.concat(out, ","))
local i, last = 0, "x"
while i < #data do
  i = i + 1
  last = data[i].v and i
end
print("while", last)
local n, found = 0, "x"
repeat
  n = n + 1
  found = data[n] and data[n].v
until n == 5
print("repeat", found)
local acc = "x"
for _, d in ipairs(data) do acc = d.v or acc end
print("ipairs or", acc)
