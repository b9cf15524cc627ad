-- spawner sends an enemy down the lane every few frames (how many is
-- drawn from math.random), with props holding entity values: the base
-- it walks to and the spawner itself, which hears of every kill.
return {
  properties = { every = 6, made = 0, wave = 12 },
  onUpdate = function(self, ctx)
    self.wait = (self.wait or 0) - 1
    if self.wait > 0 or self.made >= self.wave then return end
    self.wait = self.every + math.random(0, 3)
    self.made = self.made + 1
    local x = ctx.entity:position()
    ctx.spawn({
      name = "enemy" .. self.made,
      position = { x, 0, math.random(-2, 2) },
      tags = { "enemy" },
      scripts = { { script = "td/enemy", props = {
        n = self.made, hp = 24 + math.random(0, 24), speed = 1 + 2 * math.random(),
        base = ctx.find("base"), spawner = ctx.entity,
      } } },
    })
  end,
  events = {
    killed = function(self, ctx, data)
      print("spawner", ctx.frame, "hears", data.victim, "killed by", data.by:name())
    end,
  },
}
