-- Proves and/or over string methods and lookups (the config idiom
-- `v = cfg[k] and tostring(cfg[k]) or default`) reassign locals as Lua
-- 5.1 does.
local cfg = {name = "hero", hp = 10}
local v = "old"
v = cfg.title and cfg.title:upper()
print("missing upper", v)
v = cfg.name and cfg.name:upper()
print("present upper", v)
v = "old"
v = cfg.speed and tostring(cfg.speed) or "default"
print("default", v)
local s = "old"
s = ("abc"):find("z") and "found"
print("find miss", s)
s = ("abc"):match("b") and "matched"
print("match hit", s)
s = "old"
s = string.match("key", "^%d") and 1
print("match miss", s)
