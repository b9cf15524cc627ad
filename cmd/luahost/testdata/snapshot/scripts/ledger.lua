-- ledger: a book of counters keyed by name, some removed before frame 100
-- and set again after it. gopher-lua puts a key set again back in its old
-- place in pairs order; a world continued from a save at frame 100 must
-- print the same order as the world that never stopped.
return {
  onCreate = function(self)
    self.note = "first"
    self.book = { gold = 1, wood = 2, iron = 3, salt = 4 }
  end,
  onUpdate = function(self, ctx)
    if ctx.frame == 40 then
      self.book.wood, self.book.gold, self.note = nil, nil, nil
    end
    if ctx.frame == 140 then
      self.book.gold, self.book.wood, self.note = 5, 6, "back"
    end
    if ctx.frame % 20 == 0 then
      local keys, parts = {}, {}
      for k in pairs(self) do keys[#keys + 1] = k end
      for k, v in pairs(self.book) do parts[#parts + 1] = k .. "=" .. v end
      print(ctx.frame, "ledger", table.concat(keys, ","), table.concat(parts, " "))
    end
  end,
}
