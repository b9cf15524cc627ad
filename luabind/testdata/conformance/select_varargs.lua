-- Proves select over varargs in the shapes scripts use: counting with
-- nils, the last n values with negative indexes, and iterating.
local function count(...) return select("#", ...) end
local function last(...) return (select(-1, ...)) end
local function tail(n, ...) return select(n, ...) end
print("count", count(), count(nil), count(nil, nil), count(1, nil, 3, nil))
print("last", last(1, 2, 3), last("only"))
print("tail", tail(2, "a", "b", "c"), tail("-2", "a", "b", "c"))
local function sum(...)
  local s = 0
  for i = 1, select("#", ...) do s = s + (select(i, ...) or 0) end
  return s
end
print("sum", sum(1, nil, 3, "4"))
print("hash prefix", select("#x", 1, 2))
