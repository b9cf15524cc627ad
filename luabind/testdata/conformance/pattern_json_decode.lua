-- Proves a small JSON decoder built on string.find, sub, byte and
-- tonumber parses numbers, strings and nesting as in Lua 5.1.
local decode
local function skip(s, i) return (s:find("%S", i)) end
local function num(s, i)
  local j = s:find("[^%d%.eE+-]", i) or #s + 1
  return tonumber(s:sub(i, j - 1)), j
end
local function str(s, i)
  local j = s:find('"', i + 1, true)
  return s:sub(i + 1, j - 1), j + 1
end
function decode(s, i)
  i = skip(s, i or 1)
  local c = s:sub(i, i)
  if c == "{" then
    local obj = {}
    i = skip(s, i + 1)
    while s:sub(i, i) ~= "}" do
      local k
      k, i = str(s, i)
      i = skip(s, i) + 1
      obj[k], i = decode(s, i)
      i = skip(s, i)
      if s:sub(i, i) == "," then i = skip(s, i + 1) end
    end
    return obj, i + 1
  elseif c == "[" then
    local arr = {}
    i = skip(s, i + 1)
    while s:sub(i, i) ~= "]" do
      arr[#arr + 1], i = decode(s, i)
      i = skip(s, i)
      if s:sub(i, i) == "," then i = skip(s, i + 1) end
    end
    return arr, i + 1
  elseif c == '"' then
    return str(s, i)
  end
  return num(s, i)
end
local v = decode('{"a": [1, 2.5, -3e2, 0.1], "b": {"c": "d"}, "n": 12345678901234}')
print("array", v.a[1], v.a[2], v.a[3], v.a[4], #v.a)
print("nested", v.b.c, v.n)
