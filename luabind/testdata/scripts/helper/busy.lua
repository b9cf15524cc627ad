-- helper/busy.lua: an onUpdate that runs a while (props rounds, in
-- thousands) and allocates nothing, then prints that it finished.
return {
  properties = { rounds = 1 },
  onUpdate = function(self, ctx)
    local n = 0
    for i = 1, self.rounds * 1000 do n = n + 1 end
    print("busy done")
  end,
}
