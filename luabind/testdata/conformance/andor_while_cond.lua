-- Proves and/or over fields reassigning a loop's control local inside
-- while and repeat conditions' bodies ends the loops as in Lua 5.1.
local list = {value = 1, next = {value = 2, next = {value = 3}}}
local node, sum = list, 0
while node do
  sum = sum + node.value
  node = node.next and node.next
end
print("linked list", sum)
local cur, steps = list, 0
repeat
  steps = steps + 1
  cur = cur.next or nil
until not cur
print("repeat steps", steps)
local q = {first = {n = 1}}
local item = "x"
item = q.second and q.second.n or q.first and q.first.n
print("fallback chain", item)
