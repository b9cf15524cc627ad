-- Proves %q quotes as Lua 5.1 does (newline as backslash-newline, \r,
-- NUL as \000, control bytes kept) and that loadstring reads it back.
local samples = {"plain", 'with "quotes"', "back\\slash", "new\nline", "cr\rhere", "nul\0byte", "\1\2\127", "tab\t"}
for i, s in ipairs(samples) do
  local q = string.format("%q", s)
  print("sample " .. i, q, loadstring("return " .. q)() == s)
end
print("number", string.format("%q", 10), string.format("%q", 0.5))
