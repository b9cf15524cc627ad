-- Proves table constructors with positional, bracketed and trailing call
-- entries give the values and lengths Lua 5.1 gives for dense arrays.
local function three() return 1, 2, 3 end
local t = {three()}
print("call expands", #t, t[3])
local u = {three(), three()}
print("only last expands", #u, u[1], u[2], u[4])
local v = {(three())}
print("parenthesized", #v)
local w = {[1] = "a", [2] = "b", "c"}
print("positional wins", w[1], w[2], #w)
local x = {n = 1, 10, 20, [3] = 30}
print("mixed", #x, x[3], x.n)
