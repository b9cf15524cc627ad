-- Proves %q quotes every byte so that loadstring reads the same string
-- back (control characters, \0, newlines, \r, quotes, backslashes,
-- bytes above 127), and shows the exact quoting Lua 5.1 produces.
local samples = {
  "plain",
  "with \"quotes\"",
  "back\\slash",
  "new\nline",
  "carriage\rreturn",
  "nul\0byte",
  "nul\0001digit",
  "tab\tand\vvertical",
  "bell\a",
  "high\200\255",
  "",
  "'single'",
  "\r\n",
  "\0",
}
for i, s in ipairs(samples) do
  local q = string.format("%q", s)
  local back = loadstring("return " .. q)()
  print("q round trip " .. i, back == s, #q)
end
print("q exact quotes", string.format("%q", 'a"b'))
print("q exact backslash", string.format("%q", "a\\b"))
print("q exact newline", (string.format("%q", "a\nb"):gsub("\n", "<LF>")))
print("q exact cr", string.format("%q", "a\rb"))
print("q exact nul", string.format("%q", "a\0b"))
print("q number", string.format("%q", 12))
print("q in larger format", string.format("x=%q;", "v"))
local all = {}
for b = 0, 255 do all[#all + 1] = string.char(b) end
local every = table.concat(all)
print("q every byte", loadstring("return " .. string.format("%q", every))() == every)
