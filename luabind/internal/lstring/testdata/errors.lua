-- Error messages of malformed patterns, in C Lua 5.1's words. A pattern
-- without magic characters is plain text.

local function fails(pattern, want, subject)
  local ok, err = pcall(string.find, subject or "a subject", pattern)
  assert(not ok, pattern .. ": no error")
  assert(err:sub(-#want) == want, pattern .. ": got " .. tostring(err) .. ", want " .. want)
end

fails("%0", "invalid capture index")
fails("(a)%2", "invalid capture index")
fails("((s)%1)", "invalid capture index")
assert(string.find("a)", ")") == 2, "')' alone is plain text")
fails(".)", "invalid pattern capture")
fails("a.)", "invalid pattern capture")
fails("(a", "unfinished capture")
fails("[a", "malformed pattern (missing ']')")
fails("[a%", "malformed pattern (missing ']')")
fails("[]", "malformed pattern (missing ']')")
fails("a%", "malformed pattern (ends with '%')")
fails("%b(", "unbalanced pattern")
fails("%fa", "missing '[' after '%f' in pattern")
fails(string.rep("()", 33), "too many captures")
fails(string.rep("a?", 201), "pattern too complex", string.rep("a", 201))
assert(string.find(string.rep("a", 200), string.rep("a?", 200)) == 1, "200 nested quantifiers")

-- An error of a back-reference is raised only when the matcher reaches it.
assert(string.find("subject", "z%1") == nil, "unreached back-reference")
