-- Proves string.find (plain and pattern, init forms, captures),
-- string.gmatch (captures, anchors, empty matches) and string.gsub
-- (string, table and function replacements, %0..%9, %%, limits, false
-- and nil keeping the match) as in Lua 5.1.
print("find plain", string.find("a.b.c", ".", 1, true))
print("find pattern", string.find("a.b.c", "%.b"))
print("find captures", string.find("key=val", "(%w+)=(%w+)"))
print("find init", string.find("abcabc", "b", 3))
print("find negative init", string.find("abcabc", "b", -2))
print("find init beyond", string.find("abc", "a", 4))
print("find empty at end", string.find("abc", "", 4))
print("find empty past end", string.find("abc", "", 5))
print("find empty", string.find("abc", ""))
print("find no match", string.find("abc", "z"))
print("find plain special", string.find("a+b", "+", 1, true))
print("find anchored", string.find("abc", "^b"), string.find("abc", "^a"))
print("find position capture", string.find("abc", "()b()"))
print("find init zero", string.find("abc", "a", 0))
print("find very negative init", string.find("abc", "a", -10))
local words = {}
for w in string.gmatch("one two  three", "%a+") do words[#words + 1] = w end
print("gmatch words", table.concat(words, ","))
local pairs_ = {}
for k, v in string.gmatch("a=1, b=2, c=3", "(%w+)=(%w+)") do pairs_[#pairs_ + 1] = k .. ":" .. v end
print("gmatch captures", table.concat(pairs_, ","))
local empties = 0
for e in string.gmatch("abc", "x*") do empties = empties + 1 end
print("gmatch empty matches", empties)
local anchored = 0
for e in string.gmatch("aaa", "^a") do anchored = anchored + 1 end
print("gmatch caret is literal in 5.1", anchored)
local positions = {}
for p in string.gmatch("hello", "()l") do positions[#positions + 1] = p end
print("gmatch positions", table.concat(positions, ","))
print("gsub string", string.gsub("hello world", "o", "0"))
print("gsub whole match", string.gsub("abc", "%w", "<%0>"))
print("gsub captures", string.gsub("key=val", "(%w+)=(%w+)", "%2=%1"))
print("gsub percent", string.gsub("50", "%d+", "%0%%"))
print("gsub limit", string.gsub("aaaa", "a", "b", 2))
print("gsub limit zero", string.gsub("aaaa", "a", "b", 0))
print("gsub table", string.gsub("$name is $age", "%$(%w+)", {name = "Ann", age = 30}))
print("gsub table missing keeps", string.gsub("$x $y", "%$(%w+)", {x = "1"}))
print("gsub function", string.gsub("1 2 3", "%d", function(d) return d * 2 end))
print("gsub function nil keeps", string.gsub("a b", "%a", function(c) if c == "a" then return "A" end end))
print("gsub function false keeps", string.gsub("a b", "%a", function() return false end))
print("gsub function multiple captures", string.gsub("a1b2", "(%a)(%d)", function(l, d) return d .. l end))
print("gsub anchored", string.gsub("aaa", "^a", "b"))
print("gsub empty pattern", string.gsub("abc", "", "-"))
print("gsub empty matches", string.gsub("abc", "x*", "-"))
print("gsub position capture", string.gsub("abc", "()", "%1"))
print("gsub number replacement", string.gsub("abc", "b", 5))
print("gsub escape non digit", string.gsub("abc", "b", "%x"))
print("gsub bad capture index", (pcall(string.gsub, "abc", "b", "%2")))
print("gsub bad replacement type", (pcall(string.gsub, "abc", "b", true)))
print("gsub table number value", string.gsub("a", "a", {a = 7}))
print("gsub table bad value", (pcall(string.gsub, "a", "a", {a = {}})))
print("gsub count only", select(2, string.gsub("banana", "a", "")))
print("gsub special chars in replacement", string.gsub("x", "x", "a\\b"))
print("gsub whole with captures", string.gsub("ab", "(a)(b)", "%0-%1-%2"))
print("gsub frontier", string.gsub("the cat sat", "%f[%w]%w", string.upper))
print("match nil", string.match("abc", "z"))
print("match nil in table", #{string.match("abc", "z")}, select("#", string.match("abc", "z")))
print("gmatch over empty string", (function() local n = 0 for _ in ("").gmatch("", ".") do n = n + 1 end return n end)())
