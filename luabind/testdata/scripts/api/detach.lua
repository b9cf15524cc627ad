-- ctx.detach() and e:detach(script): the instance is out of the schedule
-- at once (no onUpdate later in the frame either); its onDestroy runs at
-- the frame's end.
local check = require("lib.check")

return {
  onCreate = function(self, ctx)
    ctx.entity:attach("helper/leaver")
    ctx.entity:attach("helper/probe", { tag = "p" })
    ctx.entity:attach("helper/probe", { tag = "q" })
  end,

  onUpdate = function(self, ctx)
    local bb = ctx.blackboard
    local e = ctx.entity
    if ctx.frame == 1 then
      check.eq(e:detach("helper/probe"), 2, "e:detach returns how many it detached")
      check.eq(e:detach("helper/probe"), 0, "none left")
      check.eq(e:detach("helper/nothing"), 0, "a script that is not attached")
      check.eq(bb["destroyed.p"], nil, "onDestroy waits for the frame's end")
    elseif ctx.frame == 2 then
      check.eq(bb["updates.p"], nil, "a detached instance gets no onUpdate, even later in the frame")
      check.eq(bb["destroyed.p"], 1, "its onDestroy ran at the end of frame 1")
      check.eq(bb["destroyed.q"], 1, "for each instance")
      check.eq(bb["leaver.updates"], 1, "ctx.detach: no further onUpdate")
      check.eq(bb["leaver.after"], "the callback runs to its end", "ctx.detach does not abort the callback")
      check.eq(bb["leaver.destroyed"], 1, "ctx.detach: onDestroy at the frame's end")
      done()
    end
  end,
}
