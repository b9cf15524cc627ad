-- The bare spinner frame in plain Lua, for the reference figures of C Lua
-- 5.1 and LuaJIT in docs/performance.md: 10,000 selves, onUpdate called
-- on each once a frame, timed by os.clock (the process's CPU time).
--   lua5.1 testdata/bench/reference_spinner.lua [frames]
--   luajit testdata/bench/reference_spinner.lua [frames]
local n, frames = 10000, tonumber(arg and arg[1]) or 300
local onUpdate = function(self, ctx, dt) self.angle = self.angle + self.speed * dt end
local selves = {}
for i = 1, n do
  selves[i] = { speed = 90, angle = 0 }
end
local ctx, dt = {}, 1 / 60
for _ = 1, 10 do
  for i = 1, n do onUpdate(selves[i], ctx, dt) end
end
local t0 = os.clock()
for _ = 1, frames do
  for i = 1, n do onUpdate(selves[i], ctx, dt) end
end
local elapsed = os.clock() - t0
print(string.format("%.0f ns/frame (%d entities, %d frames)", elapsed / frames * 1e9, n, frames))
