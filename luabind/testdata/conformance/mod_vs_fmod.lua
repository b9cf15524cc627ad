-- Proves the % operator (floored) against math.fmod (truncated) for a
-- grid of signs and fractions, as Lua 5.1 computes them.
local rows = {}
for _, a in ipairs({7, -7, 7.5, -7.5, 0.3}) do
  for _, b in ipairs({3, -3, 0.2, -0.2}) do
    rows[#rows + 1] = string.format("%g:%g=%.14g/%.14g", a, b, a % b, math.fmod(a, b))
  end
end
print("grid", table.concat(rows, " "))
