-- In frame 1, attaches "early" to entity A: the new instance is created at
-- once, is last in attach order, and updates from frame 2 on, before A's
-- other scripts (priority -5) but after the earlier "early" instances.
return {
  priority = 1,
  onUpdate = function(self, ctx)
    print(ctx.frame, "update adder", ctx.entity:name())
    if ctx.frame == 1 then
      ctx.find("A"):attach("early")
    end
  end,
}
