-- Proves loadstring's messages for malformed statements (locals,
-- functions, methods, returns, assignments) in Lua 5.1's words.
local function try(src) return (select(2, loadstring(src)):gsub("'(<%a+>)'", "%1")) end
print("local comma", try("local x, = 1"))
print("method name", try("function t:() end"))
print("function dot", try("function a.() end"))
print("param", try("function f(1) end"))
print("return then more", try("do return 1 end x ="))
print("double assignment", try("x = 1 = 2"))
print("bad local attrib", try("local x <const> = 1"))
print("goto is a name", try("goto done"))
