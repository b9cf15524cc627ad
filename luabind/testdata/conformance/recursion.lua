-- Proves Lua-to-Lua recursion 10,000 deep and more works as in Lua 5.1
-- (a 400-cell flood fill, a deep non-tail recursion, mutual recursion),
-- that tail calls do not grow the stack, and that a runaway recursion is
-- a catchable stack overflow error.
local function depth(n) if n == 0 then return 0 end return 1 + depth(n - 1) end
print("depth 190", depth(190))
print("depth 10000", pcall(depth, 10000))
local function isEven(n) if n == 0 then return true end return not isEven(n - 1) end
print("mutual 5000", pcall(isEven, 5000))
local grid = {}
for y = 1, 20 do grid[y] = {} for x = 1, 20 do grid[y][x] = 0 end end
local function fill(x, y)
  if x < 1 or y < 1 or x > 20 or y > 20 or grid[y][x] ~= 0 then return 0 end
  grid[y][x] = 1
  return 1 + fill(x + 1, y) + fill(x - 1, y) + fill(x, y + 1) + fill(x, y - 1)
end
print("flood fill 400", pcall(fill, 1, 1))
local function loop(n) if n == 0 then return "done" end return loop(n - 1) end
print("tail calls 1000000", loop(1000000))
local function runaway(n) return 1 + runaway(n + 1) end
print("runaway is an error", (pcall(runaway, 1)))
