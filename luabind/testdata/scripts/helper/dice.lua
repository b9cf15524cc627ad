-- helper/dice.lua: prints a few random numbers.
return {
  onCreate = function(self, ctx)
    print(math.random(1000), math.random(1000), math.random(1000), math.random())
  end,
}
