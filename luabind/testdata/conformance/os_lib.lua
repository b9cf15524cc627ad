-- Proves the deterministic parts of os: date with '!' (UTC) for every
-- 5.1 conversion and for "*t", time of a date table (round trip through
-- "*t"), difftime, and clock's type.
local t0 = 1700000000
local function d(fmt) return os.date("!" .. fmt, t0) end
for _, c in ipairs({"a", "A", "b", "B", "c", "d", "H", "I", "j", "m", "M", "p", "S", "U", "w", "W", "x", "X", "y", "Y", "%"}) do
  print("date %" .. c, d("%" .. c))
end
print("date literal text", d("day %d of %B, %Y at %H:%M:%S"))
print("date empty", "[" .. os.date("!", t0) .. "]", "[" .. d("") .. "]")
print("date early year", os.date("!%Y-%m-%d %j %a", 86400 * 3))
print("date leap day", os.date("!%Y-%m-%d %j %A %U %W", 951782400))
print("date new year week", os.date("!%U %W %j %w", 1104537600))
local tt = os.date("!*t", t0)
print("date *t", tt.year, tt.month, tt.day, tt.hour, tt.min, tt.sec, tt.wday, tt.yday, tt.isdst)
local keys = {}
for k in pairs(tt) do keys[#keys + 1] = k end
table.sort(keys)
print("date *t keys", table.concat(keys, ","))
local lt = os.date("*t", t0)
print("time round trip", os.time(lt) == t0)
print("time of table", os.time({year = 2020, month = 1, day = 1, hour = 12}) - os.time({year = 2020, month = 1, day = 1, hour = 0}))
print("time normalises", os.time({year = 2020, month = 1, day = 32, hour = 12}) == os.time({year = 2020, month = 2, day = 1, hour = 12}))
print("time default hour is noon", os.time({year = 2020, month = 6, day = 1}) == os.time({year = 2020, month = 6, day = 1, hour = 12}))
print("time missing field", (pcall(os.time, {year = 2020})))
print("time type", type(os.time()))
print("difftime", os.difftime(t0 + 90, t0), os.difftime(t0, t0 + 90))
print("difftime one arg", os.difftime(t0) == t0)
print("clock type", type(os.clock()))
print("date default format type", type(os.date()))
print("date number arg", os.date("!%Y", 0))
