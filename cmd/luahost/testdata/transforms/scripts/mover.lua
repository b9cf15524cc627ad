-- Writes m's transform several times a frame: the last write wins, and
-- nobody (the writer included) sees it before the frame's flush.
local fmt = require("lib.fmt")
return {
  onCreate = function(self, ctx)
    print(ctx.frame, "setup position", fmt.v(ctx.entity:position()))
    print(ctx.frame, "setup rotation", fmt.v(ctx.entity:rotation()))
    print(ctx.frame, "setup scale", fmt.v(ctx.entity:scale()))
  end,
  onUpdate = function(self, ctx)
    local e = ctx.entity
    local f = ctx.frame
    e:setPosition(f, 0, 0)
    print(f, "mover after 1st write", fmt.v(e:position()))
    e:setPosition(f * 10, 0, 0)
    print(f, "mover after 2nd write", fmt.v(e:position()))
    if f == 2 then
      e:setScale(2, 2, 2)
      e:setRotation(0, 180, 0)
    end
  end,
}
