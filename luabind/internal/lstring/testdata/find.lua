-- string.find and string.match, with init, plain and every kind of pattern
-- item. Run with Limits{MaxSize = 1 MiB}.

local function eq(what, got, want)
  assert(got == want, what .. ": got " .. tostring(got) .. ", want " .. tostring(want))
end

local function pack(...) return { n = select("#", ...), ... } end

local function same(what, got, ...)
  local want = pack(...)
  eq(what .. " (count)", got.n, want.n)
  for i = 1, want.n do eq(what .. " #" .. i, got[i], want[i]) end
end

-- find: positions, then captures
same("plain char", pack(string.find("hello", "l")), 3, 3)
same("from init", pack(string.find("hello", "l", 4)), 4, 4)
same("negative init", pack(string.find("hello", "l", -2)), 4, 4)
same("no match", pack(string.find("hello", "z")), nil)
same("plain text", pack(string.find("a.b.c", ".", 2, true)), 2, 2)
same("plain whatever follows", pack(string.find("a.b", ".", 1, true, 0)), 2, 2)
same("captures", pack(string.find("key = value", "(%w+)%s*=%s*(%w+)")), 1, 11, "key", "value")
same("position captures", pack(string.find("hello", "()ll()")), 3, 4, 3, 5)
same("empty pattern", pack(string.find("abc", "", 3)), 3, 2)
same("empty pattern past the end", pack(string.find("abc", "", 10)), 4, 3)
same("method", pack(("hello"):find("l+")), 3, 4)

-- classes and sets
eq("%a", string.match("123abc456", "%a+"), "abc")
eq("%d", string.match("abc123", "%d+"), "123")
eq("%s", string.match("a \t\n b", "%s+"), " \t\n ")
eq("%x", string.match("zzBEEFzz", "%x+"), "BEEF")
eq("%p", string.match("ab,.;cd", "%p+"), ",.;")
eq("%u and %l", string.match("abcDEFghi", "%u+%l"), "DEFg")
eq("%c", string.match("a\1\2b", "%c+"), "\1\2")
eq("%w", string.match("  foo_bar  ", "[%w_]+"), "foo_bar")
eq("%z", string.find("a\0b", "%z"), 2)
eq("complement", string.match("abc123", "%D+"), "abc")
eq("set", string.match("xxabcabcyy", "[abc]+"), "abcabc")
eq("negated set", string.match("abcxyz", "[^abc]+"), "xyz")
eq("range", string.match("xyzabcdefg", "[a-d]+"), "abcd")
eq("] first in a set", string.match("a]]b", "[]]+"), "]]")
eq("- last in a set", string.match("a--b", "[b-]+"), "--b")
eq("after a class in a set, - is a member", string.find("-", "[%a-z]"), 1)
eq("a range may end at %", string.find("%", "[a-%z]"), nil)
eq("escaped magic", string.match("1+1=2", "%d%+%d"), "1+1")
eq("dot", string.match("abc", "a.c"), "abc")

-- quantifiers
eq("*", string.match("aaab", "a*"), "aaa")
eq("+", string.match("baaa", "a+"), "aaa")
eq("- is lazy", string.match("<a><b>", "<(.-)>"), "a")
eq("* is greedy", string.match("<a><b>", "<(.*)>"), "a><b")
eq("?", string.match("color", "colou?r"), "color")
eq("quantifier after a quantifier is a char", string.match("a*", "a**"), "a*")

-- anchors
eq("^", string.find("abc", "^b"), nil)
eq("^ with init", string.find("abc", "^b", 2), 2)
eq("$", string.match("abc", "c$"), "c")
eq("$ in the middle is a char", string.match("a$b", "a$b"), "a$b")
eq("trim", string.match("  x y  ", "^%s*(.-)%s*$"), "x y")
same("no match returns nil", pack(string.match("abc", "z")), nil)

-- back-references, balance, frontier
eq("back-reference", string.match("say 'hi' now", "(['\"])(.-)%1"), "'")
same("back-reference captures", pack(string.match([[a "q" b]], [[(["'])(.-)%1]])), '"', "q")
eq("balance", string.match("f(a(b)c)d", "%b()"), "(a(b)c)")
eq("balance with the same delimiters", string.match("x'abc'y", "%b''"), "'abc'")
eq("frontier", string.match("THE (quick) fox", "%f[%a]%a+", 5), "quick")
eq("frontier at a word end", select(2, string.find("hello world", ".-%f[%W]")), 5)
eq("frontier at the subject end", string.find("abc", "%f[%z]"), 4)
