-- Proves os.date and os.difftime take numeric strings for times as Lua
-- 5.1 converts them.
print("date string time", os.date("!%Y-%m-%d %H:%M", "90061"))
print("date float time", os.date("!%H:%M:%S", 3661.9))
print("difftime", os.difftime("100", "40"), os.difftime(100))
print("bad time", pcall(function() return os.date("!%Y", "soon") end))
