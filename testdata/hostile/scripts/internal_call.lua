-- Every Go function on the call stack, found with debug.getinfo inside
-- pcall, an xpcall handler, a coroutine, an event handler and a timer,
-- called by the script with no arguments, odd ones and itself. pcall's
-- inner function, called inside a protected call, installed its error
-- hook over itself: the next error recursed until the Go stack
-- overflowed and killed the process.
local found = {}

local function collect()
  for level = 1, 8 do
    local info = debug.getinfo(level, "fS")
    if info and info.what == "C" then found[#found + 1] = info.func end
  end
end

local function abuse()
  -- A copy: calling xpcall's handler wrapper collects again.
  for _, f in ipairs({ unpack(found) }) do
    pcall(f)
    pcall(f, 1, 2)
    pcall(f, f)
    pcall(f, error, "inner")
    pcall(f, function() local t; return t.x end)
    pcall(function() f(error, "bare") end)
  end
end

return {
  events = { poke = function(self, ctx) collect() end },
  tick = function(self, ctx) collect() end,
  onUpdate = function(self, ctx)
    if ctx.frame == 1 then
      ctx.after(0, "tick")
      return
    end
    pcall(collect)
    xpcall(function() error("x") end, function(m) collect() return m end)
    coroutine.wrap(collect)()
    ctx.entity:send("poke", {})
    abuse()
    error(#found .. " functions called")
  end,
}
