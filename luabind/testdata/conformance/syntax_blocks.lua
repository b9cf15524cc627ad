-- Proves unclosed and mismatched blocks are reported as Lua 5.1 reports
-- them: 'end' expected with the opener's line when it is another line,
-- 'until' expected, '<eof>' expected after an extra end, break outside a
-- loop.
-- Messages are compared with the quotes around <eof> and <name> taken
-- off: luahost writes them unquoted on purpose (syntax_quoting.lua).
local function try(src) return (select(2, loadstring(src)):gsub("'(<%a+>)'", "%1")) end
print("if other line", try("if x then\n  y = 1\n"))
print("function other line", try("function f()\n\n  return 1\n"))
print("repeat", try("repeat x = 1"))
print("extra end", try("x = 1 end"))
print("break outside", try("break"))
print("nested unclosed", try("do\n  if x then\n  end\n"))
print("return not last", try("return 1 x = 2"))
print("else without if", try("else"))
print("elseif after else", try("if a then else elseif b then end"))
