-- lib/story.lua: one place that decides how the demo's story lines look.
--
--   local story = require("lib.story")
--   story.say(ctx, "reached waypoint %d", 2)
--   --> [frame 60] guard: reached waypoint 2
--
-- The speaker is the entity's scene name (or its id when it has none).

local story = {}

-- story.who(e) returns e's scene name, or its id ("entity(4:1)").
function story.who(e)
  return e:name() or e:id()
end

-- story.at(v) formats a vector (vec3) for people: "(3, 0, 1.5)", rounded
-- to two decimals. tostring(v) would give "vec3(3, 0, 1.5)" unrounded.
function story.at(v)
  local function n(x)
    local r = math.floor(x * 100 + 0.5) / 100
    if r == 0 then r = 0 end -- no "-0"
    return string.format("%g", r)
  end
  return "(" .. n(v.x) .. ", " .. n(v.y) .. ", " .. n(v.z) .. ")"
end

-- story.say(ctx, fmt, ...) prints one line of the story, as spoken by the
-- entity of the running instance.
function story.say(ctx, fmt, ...)
  print(string.format("[frame %d] %s: " .. fmt, ctx.frame, story.who(ctx.entity), ...))
end

return story
