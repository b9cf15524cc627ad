-- helper/payer.lua: calls the Go functions TestRegister registers.
pay("chunk")

return {
  onCreate = function(self, ctx)
    local r = pay(5, "x", { a = { 1 } }, ctx.entity)
    ctx.blackboard.paid = r
    local ok, err = pcall(refuse, "please")
    ctx.blackboard.refused = err
    ok, err = pcall(badresult)
    ctx.blackboard.badresult = err
  end,
  onUpdate = function(self, ctx)
    ctx.blackboard.late = late(ctx.frame)
  end,
}
