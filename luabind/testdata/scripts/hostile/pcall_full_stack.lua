-- hostile/pcall_full_stack.lua: a recursion through pcall that fills the
-- call stack: whichever frame is the one that does not fit (pcall's, its
-- protected call's or the function's), the innermost pcall returns
-- false, "stack overflow", and
-- every frame outside it gets its results intact. gopher-lua, starting a
-- protected call on a full stack, dropped the stack's last 8 frames and
-- returned later results over the registers of the functions around it
-- ("attempt to call a string value (global 'select')").
local check = require("lib.check")

-- Each level returns what the level inside it returned, or the error
-- that stopped it.
local function nest(d)
  if d == 0 then return "bottom" end
  local ok, v = pcall(nest, d - 1)
  return v
end

-- xpcall passes no arguments: the depth left is an upvalue.
local left
local function handler(m) return m end
local function xstep()
  if left == 0 then return "bottom" end
  left = left - 1
  local ok, v = xpcall(xstep, handler)
  return v
end
local function xnest(d)
  left = d
  return xstep()
end

-- at(extra, f, d) calls f(d) from extra more frames: which frame of a
-- level is the one that does not fit depends on the depth the recursion
-- starts from, and a level takes three frames (the function, pcall and
-- its protected call).
local function at(extra, f, d)
  if extra == 0 then return f(d) end
  return (at(extra - 1, f, d))
end

-- check runs f from extra more frames.
local function check_at(f, extra)
  local sel, results = select, { at(extra, f, 5000) }
  check.eq(type(results), "table", "the results' table survives from " .. extra)
  check.eq(sel("#", 1, 2), 2, "select survives from " .. extra)
  check.truthy(tostring(results[1]):find("stack overflow$"), "ends with " .. tostring(results[1]))
end

return {
  onUpdate = function(self, ctx)
    for extra = 0, 2 do
      check_at(nest, extra)
      check_at(xnest, extra)
    end
    print("intact")
  end,
}
