-- Proves varargs: select with positive and negative indexes, '#',
-- trailing nils kept, ... in table constructors and calls, unpack with
-- ranges, and the implicit 'arg' table absent in a 5.1 vararg function
-- that uses '...'.
local function count(...) return select("#", ...) end
print("count none", count())
print("count nils", count(nil, nil))
print("count trailing nil", count(1, nil))
print("select 2", select(2, "a", "b", "c"))
print("select -1", select(-1, "a", "b", "c"))
print("select -3", select(-3, "a", "b", "c"))
print("select past end", select(5, "a", "b"))
print("select bad", (pcall(select, 0, "a")))
print("select too negative", (pcall(select, -3, "a")))
local function pack(...) return {n = select("#", ...), ...} end
local p = pack(1, nil, 3)
print("pack", p.n, p[1], p[2], p[3])
local function pass(...) return ... end
print("pass through", pass(1, 2, 3))
print("pass truncated", (pass(1, 2, 3)))
print("pass in middle", pass(1, 2), "end")
local function first(a, ...) return a, select("#", ...) end
print("fixed plus vararg", first(9, 8, 7))
print("unpack", unpack({1, 2, 3}))
print("unpack range", unpack({1, 2, 3, 4}, 2, 3))
print("unpack from", unpack({1, 2, 3}, 2))
print("unpack empty range", select("#", unpack({1, 2}, 3, 2)))
print("unpack with holes", unpack({1, nil, 3}, 1, 3))
print("unpack explicit n", select("#", unpack({}, 1, 5)))
local function sum(...)
  local s = 0
  for i = 1, select("#", ...) do s = s + (select(i, ...)) end
  return s
end
print("sum", sum(1, 2, 3, 4, 5))
local function tail(...) return select(2, ...) end
print("tail", tail("x", "y", "z"))
local t = {pass(1, 2), pass(3, 4)}
print("constructor expands last only", #t, t[1], t[2], t[3])
local function nested(...)
  local function inner(...) return select("#", ...) end
  return inner(...), inner(..., "x")
end
print("nested varargs", nested(1, 2))
print("vararg in string.format", string.format("%s-%s", pass("a", "b")))
print("math.max of varargs", math.max(pass(3, 9, 4)))
local function manyret() return 1, 2, 3, 4, 5, 6, 7, 8, 9, 10 end
print("many results", select("#", manyret()))
print("table of many", #{manyret()})
