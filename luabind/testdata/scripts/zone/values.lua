-- zone probes entity values in a zoned world: self.other's entity moved
-- to another zone (alive, zone and state answer; a method that needs the
-- entity raises an error that says where it went), self.gone's entity is
-- gone, and its own entity is in this host's zone.
return {
  onUpdate = function(self, ctx)
    local o = self.other
    print("mine", ctx.entity:zone(), "other", o:alive(), o:zone(), o:state())
    print("name", pcall(o.name, o))
    print("kill", pcall(o.kill, o))
    print("gone", self.gone:alive(), self.gone:zone())
  end,
}
