-- Semicolons: one may end a statement; one alone is no statement; break
-- and return end their block.
local function try(src)
  local f, err = loadstring(src)
  print(f and "ok" or err)
end
try("local a = 1;; return a")
try(";")
try("local a = 1; local b = 2;")
try("while true do break; end")
try("while true do break; local x = 1 end")
try("do return; end")
try("do return 1; 2 end")
try("f();")
try("f();(g)()")
try("local t = {1;2;}")
try("if x then ; end")
