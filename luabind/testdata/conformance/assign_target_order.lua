-- Proves a multiple assignment evaluates its targets' tables and keys
-- before it assigns any of them, as Lua 5.1 does, when they read a field,
-- an index or a call that a target to their right changes.
local t = {n = 1}
t[t.n], t.n = "a", 2
print("field key", t[1], t[2])
local x = 1
local function get() return x end
local u = {}
u[get()], x = "b", 2
print("call key", u[1], u[2])
local v = {1, 2, 3}
local i = 1
v[v[i]], v[i] = 20, 10
print("index key", v[1], v[2], v[10])
local o = {t = {}}
local n = {}
o.t.x, o.t = 1, n
print("field table", n.x, o.t == n)
local a, b = 1, 2
a, b = b, a
print("swap", a, b)
local w = {1, 2}
local j, k = 1, 2
w[j], w[k] = w[k], w[j]
print("swap in table", w[1], w[2])
local q = {}
q[i + 1], i = "c", 5
print("arith key", q[2], q[6], i)
