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

-- story.say(ctx, fmt, ...) prints one line of the story, as spoken by the
-- entity of the running instance.
function story.say(ctx, fmt, ...)
  print(string.format("[frame %d] %s: " .. fmt, ctx.frame, story.who(ctx.entity), ...))
end

return story
