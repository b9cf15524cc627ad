-- dump(v) formats plain data deterministically: tables with sorted keys.
local function dump(v)
  if type(v) ~= "table" then
    if type(v) == "string" then return string.format("%q", v) end
    return tostring(v)
  end
  local keys = {}
  for k in pairs(v) do table.insert(keys, k) end
  table.sort(keys, function(a, b) return tostring(a) < tostring(b) end)
  local parts = {}
  for _, k in ipairs(keys) do
    table.insert(parts, tostring(k) .. "=" .. dump(v[k]))
  end
  return "{" .. table.concat(parts, ", ") .. "}"
end
return dump
