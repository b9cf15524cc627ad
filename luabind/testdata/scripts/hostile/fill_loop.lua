-- hostile/fill_loop.lua: keeps attaching a script whose onCreate fills a
-- table without end. The memory its onCreates allocate counts against
-- this onUpdate, which is stopped by its memory limit.
return {
  onUpdate = function(self, ctx)
    for i = 1, 200 do
      ctx.entity:attach("helper/fill")
    end
  end,
}
