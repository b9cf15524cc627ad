-- ctx.entity follows every callback of the state once a script read it
-- (from then on it is stored in ctx's fields): also callbacks of the same
-- script nested in another, a spawned entity's onCreate and an event
-- handler run by e:send, and after them the outer callback's again.
local check = require("lib.check")

return {
  properties = { child = false },
  onCreate = function(self, ctx)
    if self.child then
      check.eq(ctx.entity:name(), "child", "the nested onCreate's entity")
      return
    end
    check.eq(ctx.entity:name(), "subject", "the first read")
    self.kid = ctx.spawn({ name = "child", scripts = { { script = "api/ctxentity", props = { child = true } } } })
    check.eq(ctx.entity:name(), "subject", "restored after the nested onCreate")
  end,
  onUpdate = function(self, ctx)
    if self.child then
      check.eq(ctx.entity:name(), "child", "the child's onUpdate")
      return
    end
    check.eq(ctx.entity:name(), "subject", "the subject's onUpdate")
    check.eq(self.kid:send("poke"), true, "the send")
    check.eq(ctx.entity:name(), "subject", "restored after the handler")
    if ctx.frame == 2 then done() end
  end,
  events = {
    poke = function(self, ctx)
      check.eq(ctx.entity:name(), "child", "the handler's entity")
    end,
  },
}
