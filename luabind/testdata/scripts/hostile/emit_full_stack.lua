-- hostile/emit_full_stack.lua: a recursion that emits at every level,
-- until the emit is the call stack's last frame and its handler cannot
-- start. The handler fails with "stack overflow" (the only error), and
-- the recursion's own frames get their values intact: a protected call
-- started on a full stack dropped the stack's last frames, and "+ 1"
-- then met a function.
local sel = select
return {
  events = { ping = function(self, ctx) end },
  onUpdate = function(self, ctx)
    local depth = 0
    local function dive(n)
      ctx.emit("ping", {})
      depth = n
      return dive(n + 1) + 1
    end
    local ok, err = pcall(dive, 1)
    assert(not ok and tostring(err):find("stack overflow$"), "the recursion ends by overflow, not by " .. tostring(err))
    assert(sel("#", 1, 2) == 2 and depth > 1000, "the frames around are intact")
  end,
}
