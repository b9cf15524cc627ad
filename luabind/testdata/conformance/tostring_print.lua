-- Proves tostring calls a __tostring whatever it is (a string fails as
-- "attempt to call a string value", a callable table is called), and
-- print calls the global tostring the script set, refuses a result that
-- is not a string or a number, and writes each argument up to its first
-- NUL byte, as Lua 5.1's print (C's fputs) does.
print("1 nontrivial", pcall(tostring, setmetatable({}, {__tostring = "x"})))
local callable = setmetatable({}, {__call = function(self, v) return "called" end})
print("2 callable", tostring(setmetatable({}, {__tostring = callable})))
print("3 number result", tostring(setmetatable({}, {__tostring = function() return 42 end})))
print("4 print of table result", pcall(print, setmetatable({}, {__tostring = function() return {} end})))
print("5 nul", "a\0b", "c")
do
  local old = tostring
  tostring = function(v) return "<" .. type(v) .. ">" end
  print(1, "x", nil)
  tostring = function(v) return 7 end
  print("seven")
  tostring = function(v) return true end
  local ok1, err1 = pcall(print, "bool")
  tostring = nil
  local ok, err = pcall(print, 1)
  tostring = old
  print("6 bool tostring", ok1, err1)
  print("6 nil tostring", ok, err)
end
print("7 string __tostring", pcall(tostring, "s"), tostring(12), tostring(nil), tostring(true))
