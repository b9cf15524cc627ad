-- messages/syntax/unclosed_if.lua: an if without its end names the if and
-- its line, at the end of the file.
-- want: 11: 'end' expected (to close 'if' at line 6) near <eof>
local function f(x) return x end
local M = {}
if f(1) then
  M.one = true
return M
-- the end of the if is missing

