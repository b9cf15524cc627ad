-- lib/check.lua: assertions for the Lua test scripts. Each raises an error
-- at the caller's line, so a failure reads "api/x.lua:12: what: got .., want ..".
-- (Error level 2 is the caller of the check function.)
local check = {}

local function show(v)
  if type(v) == "string" then return string.format("%q", v) end
  return tostring(v)
end

-- check.eq(got, want [, what]) fails unless got == want.
function check.eq(got, want, what)
  if got ~= want then
    error(string.format("%s: got %s, want %s", what or "value", show(got), show(want)), 2)
  end
end

-- check.truthy(v [, what]) fails unless v is neither nil nor false.
function check.truthy(v, what)
  if not v then error((what or "value") .. ": got " .. show(v), 2) end
end

-- check.vec(x, y, z, wx, wy, wz [, what]) compares three numbers.
function check.vec(x, y, z, wx, wy, wz, what)
  if x ~= wx or y ~= wy or z ~= wz then
    error(string.format("%s: got (%s, %s, %s), want (%s, %s, %s)", what or "vector",
      show(x), show(y), show(z), show(wx), show(wy), show(wz)), 2)
  end
end

-- check.same(got, want [, what]) compares plain data deeply.
local function same(a, b)
  if type(a) ~= "table" or type(b) ~= "table" then return a == b end
  for k, v in pairs(a) do
    if not same(v, b[k]) then return false end
  end
  for k in pairs(b) do
    if a[k] == nil then return false end
  end
  return true
end

local function dump(v)
  if type(v) ~= "table" then return show(v) end
  local keys = {}
  for k in pairs(v) do keys[#keys + 1] = k end
  table.sort(keys, function(x, y) return tostring(x) < tostring(y) end)
  local parts = {}
  for _, k in ipairs(keys) do parts[#parts + 1] = tostring(k) .. "=" .. dump(v[k]) end
  return "{" .. table.concat(parts, ", ") .. "}"
end
check.dump = dump

function check.same(got, want, what)
  if not same(got, want) then
    error(string.format("%s: got %s, want %s", what or "value", dump(got), dump(want)), 2)
  end
end

-- check.fails(fragment, fn, ...) calls fn(...) protected; it must fail with
-- a message containing fragment (a plain substring). Returns the message.
function check.fails(fragment, fn, ...)
  local ok, err = pcall(fn, ...)
  if ok then
    error("expected an error containing " .. show(fragment) .. ", got none", 2)
  end
  err = tostring(err)
  if not string.find(err, fragment, 1, true) then
    error("expected an error containing " .. show(fragment) .. ", got " .. show(err), 2)
  end
  return err
end

-- check.list(...) returns the arguments as a list, n included, so that
-- trailing nils are kept.
function check.pack(...)
  return { n = select("#", ...), ... }
end

return check
