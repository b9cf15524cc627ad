-- Keeps attaching a listener whose handler never returns and emitting to
-- it: the handlers run on this onUpdate's
-- clock, which is stopped within its budget at the emit line.
return {
  onUpdate = function(self, ctx)
    for i = 1, 200 do
      ctx.entity:attach("lib/handle_forever")
      ctx.emit("spin", i)
    end
  end,
}
