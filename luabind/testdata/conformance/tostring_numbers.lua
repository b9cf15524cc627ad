-- Proves tostring of numbers across magnitudes and signs, as Lua 5.1
-- prints them with %.14g.
local nums = {0, 1, -1, 0.1, 1 / 3, 100, 1e14, 1e15, 123456789012345678, 2 ^ 63, 1e-5, 1.5e-300, 12.75, -123.456}
local out = {}
for i, n in ipairs(nums) do out[i] = tostring(n) end
print("numbers", table.concat(out, " "))
print("inf nan", tostring(math.huge), tostring(-math.huge), tostring(0 / 0) == tostring(0 / 0))
print("concat", 1 / 3 .. "", 1e15 .. "|", -0.5 .. "")
