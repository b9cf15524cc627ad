-- lengths: keeps tables with nils among their values in self, made by
-- constructors and by writes, and prints # of each every frame. Lua 5.1
-- answers # of the two kinds differently ({1, nil, 3} is 3 long, t[1]
-- and t[3] written one by one 1), so a world continued from a snapshot
-- must rebuild each kind as it was.
local function pack(...) return {...} end
return {
  onCreate = function(self)
    self.args = pack(1, nil, 3)
    self.lit = {nil, nil, 3}
    self.writes = {}
    self.writes[1], self.writes[3] = 1, 3
  end,
  onUpdate = function(self, ctx)
    if ctx.frame == 5 then
      self.args[#self.args + 1] = "appended"
    end
    print(ctx.frame, #self.args, #self.lit, #self.writes, self.args[4])
  end,
}
