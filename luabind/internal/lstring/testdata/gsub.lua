-- string.gsub with string, table and function replacements and a count.

local function check(what, want, wantn, s, n)
  assert(s == want, what .. ": got " .. tostring(s) .. ", want " .. tostring(want))
  assert(n == wantn, what .. ": got count " .. tostring(n) .. ", want " .. tostring(wantn))
end

check("string", "hell0 w0rld", 2, string.gsub("hello world", "o", "0"))
check("limit", "hell0 world", 1, string.gsub("hello world", "o", "0", 1))
check("limit 0", "hello world", 0, string.gsub("hello world", "o", "0", 0))
check("%0", "<a><b><c>", 3, string.gsub("abc", "%w", "<%0>"))
check("%1 without captures", "aabbcc", 3, string.gsub("abc", "%w", "%1%1"))
check("captures", "v=k, y=x", 2, string.gsub("k=v, x=y", "(%w)=(%w)", "%2=%1"))
check("%%", "50%", 1, string.gsub("50", "%d+", "%0%%"))
check("% before another character is that character", "x", 1, string.gsub("a", "a", "%x"))
check("a final % is a NUL", "\0", 1, string.gsub("a", "a", "%"))
check("position capture", "a2c", 1, string.gsub("abc", "()b", "%1"))
check("empty matches", "-a-b-c-", 4, string.gsub("abc", "", "-"))
check("anchored", "baa", 1, string.gsub("aaa", "^a", "b"))

check("table", "Ann is 30", 2, string.gsub("$name is $age", "%$(%w+)", { name = "Ann", age = 30 }))
check("table miss keeps the match", "1 $b", 2, string.gsub("$a $b", "%$(%w+)", { a = "1" }))
check("table __index", "ABC", 3, string.gsub("abc", "%w", setmetatable({}, { __index = function(_, k) return k:upper() end })))

check("function", "HELLO WORLD", 2, string.gsub("hello world", "%w+", function(w) return w:upper() end))
check("function with captures", "1a2b", 2, string.gsub("a1b2", "(%a)(%d)", function(a, d) return d .. a end))
check("function returning nil", "aBc", 3, string.gsub("abc", "%w", function(c) if c == "b" then return "B" end end))
local calls = 0
check("function calls", "x x x", 3, string.gsub("x x x", "x", function() calls = calls + 1 end))
assert(calls == 3, "function called for each match")

local ok, err = pcall(string.gsub, "abc", "(%w)", "%2")
assert(not ok and err:find("invalid capture index", 1, true), "invalid %2: " .. tostring(err))
ok, err = pcall(string.gsub, "abc", "%w", function() error("boom") end)
assert(not ok and err:find("boom", 1, true), "error in a replacement function: " .. tostring(err))
