-- messages/arg_coerced.lua: a string that reads as a number is coerced,
-- as in reference Lua: setPosition("1", 2, 3) works; the error that
-- follows proves it ran.
-- want: 8: position 1
return {
  onCreate = function(self, ctx)
    ctx.entity:setPosition("1", "0x2", " 3 ")
    error("position " .. ctx.entity:position())
  end,
}
