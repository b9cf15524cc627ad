-- Proves % in loops as game code uses it (cycling indexes, wrapping
-- angles, every-n-frames checks) gives Lua 5.1's results.
local seq = {}
for i = 0, 9 do seq[#seq + 1] = i % 4 end
print("cycle", table.concat(seq, ""))
local angles = {}
for _, a in ipairs({370, -10, 720.5, -0.25, 359.9}) do angles[#angles + 1] = a % 360 end
print("wrap", table.concat(angles, " "))
local ticks = 0
local dt = 0.1
local t = 0
for i = 1, 30 do
  t = t + dt
  if t % 1 < dt then ticks = ticks + 1 end
end
print("ticks", ticks)
local phases = {}
for i = 1, 6 do phases[i] = (i * 0.7) % 1 end
print("phases", table.concat(phases, " "))
