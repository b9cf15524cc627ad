-- Proves not combined with and/or over fields and calls, assigned to
-- existing locals, gives Lua 5.1's booleans and values.
local t = {yes = true}
local function nothing() end
local r = "old"
r = not t.no and t.missing
print("not then field", r)
r = "old"
r = not t.yes or t.missing
print("not or field", r)
r = "old"
r = not nothing() and nothing()
print("not call and call", r)
r = "old"
r = not (t.no and t.yes)
print("not of and", r)
