-- An onCreate that attaches this same script to its own entity: the same
-- chain as self_spawn through e:attach, on one entity. Refused at the
-- nesting limit with one report; the host and the survivor go on.
return {
  onCreate = function(self, ctx)
    ctx.entity:attach("self_attach")
  end,
}
