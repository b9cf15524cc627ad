-- Nests its own events 15 deep, then emits "bait": the innocent handler
-- of bait makes one ordinary emit, the 17th level, past the nesting
-- limit. The chain is this script's, so its onUpdate is faulted.
local events = {}
for i = 1, 14 do
  events["a" .. i] = function(self, ctx) ctx.emit("a" .. (i + 1)) end
end
events.a15 = function(self, ctx) ctx.emit("bait") end
return {
  events = events,
  onUpdate = function(self, ctx)
    ctx.emit("a1")
  end,
}
