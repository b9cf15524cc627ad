-- Proves # of a table with a far sparse key gives the array's border, as
-- Lua 5.1 does (the far key lives in the hash part), so t[#t+1] = v
-- appends next to the array.
local t = {false, 1, 2}
t[178634] = 1
print("far key", #t)
t[#t + 1] = "appended"
print("append lands", t[4], #t)
local u = {}
for i = 1, 10 do u[i] = i end
u[1000000] = true
print("loop array then far", #u)
local v = {1, 2, 3}
v[2 ^ 30] = 1
print("power of two key", #v)
local w = {}
w[100] = 1
print("only far key", #w)
local e = {}
e[1] = 1
e[3] = 3
print("hole after one", #e)
