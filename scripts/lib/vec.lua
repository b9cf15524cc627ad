-- lib/vec.lua: a few helpers for 3D vectors written as {x, y, z}.
--
-- Load it with  local vec = require("lib.vec")
-- A module is loaded once per script state; scripts that require it do
-- not share its tables (each script runs in its own Lua state).

local vec = {}

-- vec.new(x, y, z) returns {x, y, z}; missing components are 0.
function vec.new(x, y, z)
  return { x or 0, y or 0, z or 0 }
end

-- vec.of(e) returns the committed position of entity e as a vector.
function vec.of(e)
  return vec.new(e:position())
end

-- vec.sub(a, b) returns a - b.
function vec.sub(a, b)
  return { a[1] - b[1], a[2] - b[2], a[3] - b[3] }
end

-- vec.add(a, b) returns a + b.
function vec.add(a, b)
  return { a[1] + b[1], a[2] + b[2], a[3] + b[3] }
end

-- vec.scale(a, k) returns a * k.
function vec.scale(a, k)
  return { a[1] * k, a[2] * k, a[3] * k }
end

-- vec.length(a) returns the length of a.
function vec.length(a)
  return math.sqrt(a[1] * a[1] + a[2] * a[2] + a[3] * a[3])
end

-- vec.str(a) formats a for people: "(3, 0, 1.5)", rounded to two decimals.
function vec.str(a)
  local function n(v)
    local r = math.floor(v * 100 + 0.5) / 100
    if r == 0 then r = 0 end -- no "-0"
    return string.format("%g", r)
  end
  return "(" .. n(a[1]) .. ", " .. n(a[2]) .. ", " .. n(a[3]) .. ")"
end

return vec
