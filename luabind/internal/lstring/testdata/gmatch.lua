-- string.gmatch: words, captures, empty matches and direct calls.

local words = {}
for w in string.gmatch("one two  three", "%a+") do words[#words + 1] = w end
assert(table.concat(words, ",") == "one,two,three", "words")

local pairs_ = {}
for k, v in string.gmatch("a=1, b=2", "(%w+)=(%w+)") do pairs_[#pairs_ + 1] = k .. ":" .. v end
assert(table.concat(pairs_, ",") == "a:1,b:2", "captures")

local positions = {}
for p in string.gmatch("hello", "()l") do positions[#positions + 1] = p end
assert(table.concat(positions, ",") == "3,4", "position captures")

local empties = 0
for _ in string.gmatch("abc", "") do empties = empties + 1 end
assert(empties == 4, "an empty match at each position and the end")

local anchored = 0
for _ in string.gmatch("aaa", "^a") do anchored = anchored + 1 end
assert(anchored == 0, "a leading '^' is a plain character")
for m in string.gmatch("x^a^a", "^a") do anchored = anchored + 1 end
assert(anchored == 2, "a leading '^' matches itself")

local it = string.gmatch("ab", "%a")
assert(it() == "a" and it() == "b" and it() == nil and it() == nil, "direct calls")
assert(select("#", string.gmatch("a", "a")) == 1, "gmatch returns the iterator alone")

local ok, err = pcall(string.gmatch, "abc", "[a")
assert(not ok and err:find("missing ']'", 1, true), "pattern checked at once: " .. tostring(err))

local gfound = {}
for w in string.gfind("x y", "%a") do gfound[#gfound + 1] = w end
assert(table.concat(gfound) == "xy", "gfind is gmatch")
