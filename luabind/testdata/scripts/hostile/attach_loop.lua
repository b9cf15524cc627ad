-- hostile/attach_loop.lua: keeps attaching a script whose onCreate never
-- returns. Each onCreate runs on its own clock while this onUpdate's clock
-- keeps running, so the loop is stopped within this callback's budget:
-- this onUpdate is faulted at the attach line, the onCreate is not blamed.
return {
  onUpdate = function(self, ctx)
    for i = 1, 200 do
      ctx.entity:attach("hostile/create_loop")
    end
  end,
}
