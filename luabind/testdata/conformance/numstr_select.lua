-- Proves select converts a numeric string index as Lua 5.1 does, counts
-- with "#", takes negative indexes, and refuses what is not a number.
print("string index", select("2", "a", "b", "c"))
print("spaced string", select(" 3 ", "a", "b", "c"))
print("float string", select("2.0", "a", "b"))
print("hex string", select("0x2", "a", "b"))
print("negative", select(-1, "a", "b", "c"))
print("negative string", select("-2", "a", "b", "c"))
print("count", select("#", 1, nil, 3))
print("past end", select(5, "a"))
print("fraction", select(2.7, "a", "b", "c"))
print("bad string", pcall(function() return select("x", 1) end))
print("zero", pcall(function() return select(0, 1) end))
print("too negative", pcall(function() return select(-5, 1) end))
