-- An onCreate that spawns an entity running this same script: every
-- onCreate runs inside the one before it. With budgets off nothing stops
-- the chain but the nesting limit: the innermost (the 201st) is refused
-- with one clear report, every onCreate around it returns normally, and
-- the Lua and Go stacks are never exhausted.
return {
  onCreate = function(self, ctx)
    ctx.spawn{ scripts = { "self_spawn" } }
  end,
}
