-- carrier: keeps state of every kind a handoff or a snapshot must carry
-- (numbers, strings, nested tables, a vector, entity values in values and
-- keys, a timer with data) and prints it, so a test can see it arrive.
return {
  properties = { hp = 10 },
  onCreate = function(self, ctx)
    print("create", ctx.entity:name())
    self.items = { "sword", "rope", gold = 5 }
    self.at = vec3(1, 2, 3)
    self.me = ctx.entity
    self.seen = {}
    self.timer = ctx.after(0.05, "ping", { n = 1 })
  end,
  ping = function(self, ctx, data)
    print("ping", ctx.entity:name(), data.n, ctx.frame)
    ctx.after(0.05, "ping", { n = data.n + 1 })
  end,
  onUpdate = function(self, ctx, dt)
    self.hp = self.hp + 1
  end,
  onDestroy = function(self, ctx) print("destroy", ctx.entity:name()) end,
  onExport = function(self, ctx) print("export", ctx.entity:name(), self.hp) end,
  onImport = function(self, ctx)
    local partner = self.partner
    if type(partner) ~= "string" and partner ~= nil then partner = "entity " .. tostring(partner:name()) end
    print("import", ctx.entity:name(), self.hp, self.items[2], self.items.gold, tostring(self.at),
      self.me == ctx.entity, partner, ctx.entity:hasTag("hero"))
  end,
  tell = function(self, ctx)
    local keys = {}
    for k in pairs(self.seen) do keys[#keys + 1] = type(k) == "string" and k or k:name() end
    table.sort(keys)
    print("seen", table.concat(keys, ","))
  end,
}
