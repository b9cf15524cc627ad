-- helper/emitter.lua: emits what the blackboard's "emit" entry says, and
-- stores the result of each emit under "emitted".
return {
  onUpdate = function(self, ctx)
    local todo = ctx.blackboard.emit
    if not todo then return end
    local results = {}
    for i, e in ipairs(todo) do
      if e.to then
        results[i] = ctx.find(e.to):send(e.name, e.data, e.mask)
      else
        results[i] = ctx.emit(e.name, e.data, e.mask)
      end
    end
    ctx.blackboard.emitted = results
    ctx.blackboard.emit = nil
  end,
}
