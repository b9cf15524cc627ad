-- Proves unusual but valid Lua 5.1 syntax compiles and runs the same:
-- string and table call arguments, chained calls, semicolons, nested
-- functions in expressions, and long comments in odd places.
local t = {f = function(self, x) return {g = function(_, y) return (x or "") .. (y or "") end} end}
print("chain", t:f"a":g"b", t:f():g() == "", type(t:f{}.g))
local r = (function(...) return select("#", ...) end)(1, nil, 3);
print("iife", r);
print("semicolons", (function() local a = 1; local b = 2; return a + b; end)())
print("comment in expr", 1 + --[[ two ]] 2)
print("method on string", ("x"):rep(3), #"abc" + 1)
local s = [[
]] print("statement after long string", #s)
