-- Proves an inspect-style printer's order (array part by #, then sorted
-- other keys) and its cycle marks on tables next to far keys, as Lua 5.1
-- prints them.
local function inspect(v, seen)
  if type(v) ~= "table" then return type(v) == "string" and ("%q"):format(v) or tostring(v) end
  seen = seen or {}
  if seen[v] then return "<cycle>" end
  seen[v] = true
  local parts, n = {}, #v
  for i = 1, n do parts[#parts + 1] = inspect(v[i], seen) end
  local keys = {}
  for k in pairs(v) do
    if not (type(k) == "number" and k >= 1 and k <= n and math.floor(k) == k) then keys[#keys + 1] = k end
  end
  table.sort(keys, function(a, b) return tostring(a) < tostring(b) end)
  for _, k in ipairs(keys) do parts[#parts + 1] = "[" .. inspect(k, seen) .. "] = " .. inspect(v[k], seen) end
  return "{" .. table.concat(parts, ", ") .. "}"
end
local t = {1, 2, 3, x = "y", [99999] = "far"}
t.self = t
print("inspect", inspect(t))
print("nested", inspect({{1}, {a = {2}}}))
