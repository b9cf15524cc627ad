-- Proves gsub's limit, find's init and rep's count take numeric strings
-- and floats as Lua 5.1 converts them (truncated toward zero).
print("gsub limit", ("aaaa"):gsub("a", "b", "3"), ("aaaa"):gsub("a", "b", "0"))
print("gsub negative limit", ("aaaa"):gsub("a", "b", "-1"))
print("gsub replacement number", ("a1b2"):gsub("%d", 7))
print("find negative init", ("hello"):find("l", "-2"))
print("find beyond", ("hello"):find("", "10"), ("hello"):find("", "6"))
print("rep float", ("ab"):rep(2.9), ("ab"):rep("-1") == "")
print("byte range", ("abc"):byte("-3", "-1"))
