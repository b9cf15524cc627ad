-- A method entity values do not have: setPos for setPosition.
return {
  onCreate = function(self, ctx)
    ctx.entity:setPos(1, 2, 3)
  end,
}
-- want: 4:16: warning: unknown entity member 'setPos'; did you mean 'setPosition'?
