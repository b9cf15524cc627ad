-- Proves a memoize cache keyed by nil, false, numbers, strings and
-- tables through placeholder keys returns each argument list's own
-- result and reuses cached ones.
local NIL = {}
local function memo(f)
  local cache = {}
  return function(a, b)
    local ka = a == nil and NIL or a
    local kb = b == nil and NIL or b
    local row = cache[ka]
    row = row and row[kb]
    if row then return row[1] end
    local r = f(a, b)
    cache[ka] = cache[ka] or {}
    cache[ka][kb] = {r}
    return r
  end
end
local calls = 0
local f = memo(function(a, b) calls = calls + 1 return tostring(a) .. "|" .. tostring(b) end)
print("first", f(1, 2), f(1, nil), f(nil, 2), f(false, false))
print("again", f(1, 2), f(1, nil), f(nil, 2), f(false, false))
local key = {}
print("table key", f(key, 1) == f(key, 1), (f(key, 1):gsub("table: %w+", "table")))
print("calls", calls)
