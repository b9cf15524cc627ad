-- Proves a small JSON encoder (arrays detected by # and maxn, sorted
-- object keys, escapes through gsub with a table, numbers by %.14g)
-- produces the same text as in Lua 5.1.
local escapes = {['"'] = '\\"', ["\\"] = "\\\\", ["\n"] = "\\n", ["\t"] = "\\t"}
local function encode(v)
  local t = type(v)
  if t == "string" then return '"' .. v:gsub('[%c"\\]', function(c) return escapes[c] or string.format("\\u%04x", c:byte()) end) .. '"' end
  if t == "number" then return string.format("%.14g", v) end
  if t == "boolean" or t == "nil" then return tostring(v) end
  local n = #v
  if n > 0 and table.maxn(v) == n then
    local parts = {}
    for i = 1, n do parts[i] = encode(v[i]) end
    return "[" .. table.concat(parts, ",") .. "]"
  end
  local keys = {}
  for k in pairs(v) do keys[#keys + 1] = tostring(k) end
  table.sort(keys)
  local parts = {}
  for _, k in ipairs(keys) do parts[#parts + 1] = encode(k) .. ":" .. encode(v[k] ~= nil and v[k] or v[tonumber(k)]) end
  return "{" .. table.concat(parts, ",") .. "}"
end
print("array", encode({1, 2.5, "x", true}))
print("object", encode({b = 1, a = {1, 2}, c = {d = "e\n"}}))
print("sparse as object", encode({[1] = "a", [3] = "c"}))
print("escapes", encode("tab\there \"q\" \1"))
