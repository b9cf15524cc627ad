-- A misspelt member of ctx: ctx.qurey is nil, and the call fails only
-- when the frame runs it.
return {
  onUpdate = function(self, ctx, dt)
    local near = ctx.qurey{ tag = "enemy", near = ctx.entity, radius = 12 }
    print(#near)
  end,
}
-- want: 5:22: warning: unknown ctx member 'qurey'; did you mean 'query'?
