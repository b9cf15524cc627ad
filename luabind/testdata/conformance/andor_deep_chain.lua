-- Proves guarded deep lookups `v = a and a.b and a.b.c` reassigning a
-- local stop at the first missing level, for every depth.
local data = {a = {b = {c = {d = "deep"}}}}
local v = "old"
v = data.a and data.a.b and data.a.b.c and data.a.b.c.d
print("all present", v)
v = "old"
v = data.x and data.x.b and data.x.b.c
print("first missing", v)
v = "old"
v = data.a and data.a.y and data.a.y.c
print("second missing", v)
v = "old"
v = data.a and data.a.b and data.a.b.z and data.a.b.z.d
print("third missing", v)
local flags = {on = false}
v = "old"
v = flags and flags.on and "enabled"
print("false level", v)
