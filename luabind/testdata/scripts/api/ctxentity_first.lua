-- ctx.entity read first in a callback nested in another of the same
-- state: once the nested one returns, the outer callback reads its own
-- entity, the same value at every read.
local check = require("lib.check")

return {
  properties = { child = false },
  onCreate = function(self, ctx)
    if self.child then
      check.eq(ctx.entity:name(), "child", "the first read, nested")
      return
    end
    ctx.spawn({ name = "child", scripts = { { script = "api/ctxentity_first", props = { child = true } } } })
    check.eq(ctx.entity:name(), "subject", "the outer callback's entity")
    check.truthy(rawequal(ctx.entity, ctx.entity), "one value")
    self.me = ctx.entity
  end,
  onUpdate = function(self, ctx)
    if self.child then return end
    check.truthy(rawequal(ctx.entity, self.me), "the same value in every callback")
    done()
  end,
}
