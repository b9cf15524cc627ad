-- Proves unpack and select take numeric strings and floats for their
-- ranges, with empty and reversed ranges.
local t = {"a", "b", "c", "d", "e"}
print("unpack strings", unpack(t, "2", "4"))
print("unpack float", unpack(t, 2.5, 3.9))
print("unpack reversed", select("#", unpack(t, "3", "2")))
print("unpack negative", unpack({[-1] = "m", [0] = "z", "a"}, "-1", "1"))
print("select float string", select("2.9", "a", "b", "c"))
print("bad unpack", pcall(function() return unpack(t, "x") end))
