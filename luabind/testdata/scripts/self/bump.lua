-- Changes its own properties table in every onCreate: the defaults are
-- the properties as the chunk returned them, so every instance starts
-- from the same hp and bag.
local props = { hp = 10, bag = { "sword" } }
return {
  properties = props,
  onCreate = function(self, ctx)
    self.startHp, self.startBag = self.hp, #self.bag
    props.hp = props.hp + 1
    props.bag[#props.bag + 1] = "shield"
    self.bag[#self.bag + 1] = "own"
  end,
}
