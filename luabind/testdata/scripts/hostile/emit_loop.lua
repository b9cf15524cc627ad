-- hostile/emit_loop.lua: keeps attaching a listener whose handler never
-- returns and emitting to it. The emits run on this onUpdate's clock, so
-- it is faulted at the emit line within its budget.
return {
  onUpdate = function(self, ctx)
    for i = 1, 200 do
      ctx.entity:attach("helper/spin_listener")
      ctx.emit("spin", i)
    end
  end,
}
