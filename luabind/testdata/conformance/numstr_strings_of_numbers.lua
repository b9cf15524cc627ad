-- Proves string functions given numbers use the text Lua 5.1 prints for
-- them (%.14g): len, sub, upper, rep, find, format's %s and concat.
local third = 1 / 3
print("len", string.len(third), string.len(1e100), string.len(-0.5))
print("sub", string.sub(third, 1, 5), string.sub(2 ^ 53, -3))
print("rep", string.rep(0.1, 2))
print("upper reverse", string.upper(1e-5), string.reverse(123.5))
print("find", string.find(third, "333", 1, true), string.match(12.5, "%d+"))
print("gsub", string.gsub(1234, "2", "x"))
print("format s", string.format("%s|%s", third, 100))
