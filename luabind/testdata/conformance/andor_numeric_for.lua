-- Proves and/or over indexes inside numeric for loops reassign outer
-- locals, and the loop variable's own copy, as in Lua 5.1.
local grid = {{1, nil, 3}, {nil, 5, nil}}
local cells = {}
for r = 1, 2 do
  for c = 1, 3 do
    local v = "x"
    v = grid[r][c] and grid[r][c] * 10
    cells[#cells + 1] = tostring(v)
  end
end
print("cells", table.concat(cells, " "))
local last = "none"
for i = 1, 3 do last = grid[1][i] and i or last end
print("last present", last)
local hits = 0
for i = 1, 5 do
  local h = grid[i] and grid[i][2]
  if h then hits = hits + 1 end
end
print("hits", hits)
