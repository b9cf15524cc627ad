-- embed/plain.lua: prints the plain data Go hands it (TestPlainFromGo):
-- its props at create, the blackboard's "shop", the result of the Go
-- function stock(), an event's data, and what Go wrote in self.gift.
local function dump(v)
  if type(v) ~= "table" then return tostring(v) end
  if getmetatable(v) == "vec3" then return tostring(v) end
  local keys = {}
  for k in pairs(v) do keys[#keys + 1] = k end
  table.sort(keys, function(a, b) return tostring(a) < tostring(b) end)
  local parts = {}
  for _, k in ipairs(keys) do parts[#parts + 1] = tostring(k) .. "=" .. dump(v[k]) end
  return "{" .. table.concat(parts, " ") .. "}"
end

return {
  onCreate = function(self, ctx)
    print("props", dump(self.loot))
  end,

  onUpdate = function(self, ctx)
    print("blackboard", dump(ctx.blackboard.shop))
    print("stock", dump(stock()))
    if self.gift then print("self", dump(self.gift)) end
  end,

  events = {
    give = function(self, ctx, data)
      print("event", dump(data), string.format("%.0f", data[1]))
    end,
  },
}
