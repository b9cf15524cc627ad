-- Proves pcall, xpcall and error behave as in Lua 5.1: positions added to
-- string messages at levels 1 and 2, no position at level 0, non-string
-- error values passed through, nested pcalls, and error handlers. The
-- wording of the VM's own runtime errors follows luahost's documented choice (Lua 5.4's
-- wording), so only their failing is checked here.
print("pcall ok", pcall(function(a, b) return a + b, "x" end, 1, 2))
print("pcall string", pcall(error, "msg"))
print("pcall level 0", pcall(function() error("plain", 0) end))
print("pcall level 1", pcall(function() error("here") end))
local function callee() error("blame caller", 2) end
print("pcall level 2", pcall(function() callee() end))
print("pcall table value", select("#", pcall(error, {})), type(select(2, pcall(error, {}))))
print("pcall nil value", pcall(error))
print("pcall number value", pcall(error, 42))
local ok, e = pcall(error, setmetatable({}, {__tostring = function() return "custom" end}))
print("pcall keeps object", ok, tostring(e))
print("nested pcall", pcall(pcall, error, "inner"))
print("xpcall handler", xpcall(function() error("boom", 0) end, function(m) return "handled: " .. m end))
print("xpcall ok", xpcall(function() return 1, 2 end, print))
print("error in handler is caught", (xpcall(function() error("a") end, function() error("b") end)))
print("pcall not a function", (pcall(42)))
print("arith error", (pcall(function() return 1 + {} end)))
print("call nil", (pcall(function() local f; f() end)))
print("index nil", (pcall(function() local t; return t.x end)))
print("concat error", (pcall(function() return "a" .. {} end)))
print("compare error", (pcall(function() return 1 < "2" end)))
print("compare tables", (pcall(function() return {} < {} end)))
print("assert ok", assert(1, "unused"))
print("assert fails", pcall(assert, false, "assertion message"))
print("assert default", pcall(assert, nil))
print("assert object", select(2, pcall(assert, false, 7)))
local count = 0
for i = 1, 5 do
  local ok = pcall(function() if i % 2 == 0 then error("even") end end)
  if ok then count = count + 1 end
end
print("pcall in loop", count)
print("error with level in nested function", pcall(function()
  local function a() error("deep", 1) end
  a()
end))
print("tostring of error message number", pcall(function() error(1.5) end))
print("xpcall handler that errors", xpcall(function() error("x") end, function(m) error("y") end))
local function rethrow(m) error(m, 0) end
print("xpcall handler that raises again", xpcall(function() error("x") end, rethrow))
print("xpcall handler result", xpcall(function() error("x", 0) end, function(m) return m .. "!" end))
print("xpcall without error", xpcall(function() return 1, 2 end, rethrow))
