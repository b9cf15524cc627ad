-- helper/badprint.lua: a print whose __tostring fails leaves no half line.
return {
  onCreate = function(self, ctx)
    local bad = setmetatable({}, { __tostring = function() error("no string") end })
    print("caught", (pcall(print, "partial", bad)))
    print("next")
  end,
}
