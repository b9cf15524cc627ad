-- Proves a serpent-style dump (keys sorted: numbers first, then strings,
-- array part in order, nested tables indented) of mixed tables gives the
-- same text as in Lua 5.1.
local function sortkeys(a, b)
  local ta, tb = type(a), type(b)
  if ta ~= tb then return ta < tb end
  return a < b
end
local function dump(v, indent)
  indent = indent or ""
  if type(v) ~= "table" then
    if type(v) == "string" then return string.format("%q", v) end
    return tostring(v)
  end
  local keys = {}
  for k in pairs(v) do
    if not (type(k) == "number" and k >= 1 and k <= #v and k % 1 == 0) then keys[#keys + 1] = k end
  end
  table.sort(keys, sortkeys)
  local out = {}
  for i = 1, #v do out[#out + 1] = indent .. "  " .. dump(v[i], indent .. "  ") end
  for _, k in ipairs(keys) do
    local key = type(k) == "string" and k or "[" .. tostring(k) .. "]"
    out[#out + 1] = indent .. "  " .. key .. " = " .. dump(v[k], indent .. "  ")
  end
  return "{\n" .. table.concat(out, ",\n") .. "\n" .. indent .. "}"
end
print("mixed", dump({1, 2, "three", name = "n", [10] = "ten", nested = {x = 1, 2}}))
print("floats", dump({[1.5] = "a", [0.25] = "b", [-1] = "c"}))
print("empty", dump({}))
print("strings", dump({"a\nb", 'q"uote', "\0"}))
