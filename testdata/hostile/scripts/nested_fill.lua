-- Keeps attaching a script whose onCreate fills a table without end: the
-- memory and time of the nested onCreates count against this onUpdate,
-- which is stopped at the attach line, never given a fresh limit.
return {
  onUpdate = function(self, ctx)
    for i = 1, 200 do
      ctx.entity:attach("lib/fill_forever")
    end
  end,
}
