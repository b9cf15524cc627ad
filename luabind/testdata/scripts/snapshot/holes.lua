-- holes: removes keys from self and from a table in self, then sets them
-- again some frames later, printing pairs order every frame. gopher-lua
-- puts a key set again back in the place it had, so a world continued
-- from a snapshot saved in between must keep those places too.
return {
  onCreate = function(self)
    self.a, self.b, self.c = 1, 2, 3
    self.f = function() end
    self.t = { x = 1, y = 2, z = 3 }
    self.t[2 ^ 30] = "big"
    self.t[true] = "yes"
    self.t[1] = "first"
  end,
  onUpdate = function(self, ctx)
    if ctx.frame == 2 then
      self.b, self.t.y, self.t[2 ^ 30], self.t[true] = nil, nil, nil, nil
    end
    if ctx.frame == 6 then
      self.b, self.t.y, self.t[2 ^ 30], self.t[true] = "b again", "y again", "big again", "yes again"
      self.f = "f as data"
    end
    local keys, tk = {}, {}
    -- A function in self is code, not data: a snapshot leaves it out
    -- (and keeps its place, which "f as data" takes back).
    for k, v in pairs(self) do
      if type(v) ~= "function" then keys[#keys + 1] = tostring(k) end
    end
    for k, v in pairs(self.t) do tk[#tk + 1] = tostring(k) .. "=" .. tostring(v) end
    print(ctx.frame, table.concat(keys, ","), table.concat(tk, ","))
  end,
}
