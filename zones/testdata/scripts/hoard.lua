-- hoard carries 1.2 MB of random bytes in self, more than NATS takes in
-- one message even gzipped, and moves one unit along x a frame.
return {
  onCreate = function(self, ctx)
    local r, char, parts = math.random, string.char, {}
    for i = 1, 150 * 1024 do
      parts[i] = char(r(0, 255), r(0, 255), r(0, 255), r(0, 255), r(0, 255), r(0, 255), r(0, 255), r(0, 255))
    end
    self.blob = table.concat(parts)
  end,
  onUpdate = function(self, ctx)
    local x = ctx.entity:position()
    ctx.entity:setPosition(x + 1, 0, 0)
  end,
}
