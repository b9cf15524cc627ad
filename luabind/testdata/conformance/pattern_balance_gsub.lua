-- Proves %b in gsub, gmatch and find with captures and anchors, nested
-- and unbalanced input, as Lua 5.1 matches them.
print("gsub nested", ("a(b(c)d)e(f)"):gsub("%b()", "[]"))
print("gmatch", (function() local t = {} for m in ("{1}{2{3}}x{"):gmatch("%b{}") do t[#t + 1] = m end return table.concat(t, "|") end)())
print("capture", ("call(x, y)"):match("(%w+)(%b())"))
print("anchored", ("(a)b"):find("^%b()"), ("x(a)"):find("^%b()"))
print("unbalanced input", ("((("):match("%b()"), ("())"):match("%b()"))
print("quotes", ('say "hi" and "bye"'):gsub('%b""', "Q"))
print("pattern end", pcall(function() return ("x"):match("x%b") end))
