-- effects acts on the entity "b" as a zoned world delivers it: tags,
-- moves and attaches in frame 1, emits in frame 2, detaches and untags
-- in frame 3; every frame it prints what it reads of b. Both print what
-- they hear.
return {
  onUpdate = function(self, ctx)
    if self.role ~= "actor" then return end
    local b = ctx.find("b")
    if ctx.frame == 1 then
      b:tag("marked")
      b:setPosition(3, 0, 0)
      b:attach("zone/timer")
      print("revive", pcall(b.revive, b))
    elseif ctx.frame == 2 then
      print("emit", ctx.emit("shout", "hi"))
    elseif ctx.frame == 3 then
      print("detach", b:detach("zone/timer"))
      b:untag("marked")
    end
    print("frame", ctx.frame, "marked", b:hasTag("marked"), "x", (b:position()), "tags", #b:tags())
  end,
  events = { shout = function(self, ctx, data) print(self.role, "heard", data, "in", ctx.frame) end },
}
