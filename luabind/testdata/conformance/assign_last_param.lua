-- Proves assignments gopher-lua compiled into the target's own register
-- and got wrong: a call's one value assigned to the function's last
-- parameter (name = "hi " .. name read the function to call instead of
-- name), and a parenthesised ... assigned to a local (the locals after
-- it were wiped).
local function greet(name) name = "hi " .. name return name end
print("concat to the last parameter", greet("bob"))
local function modulo(p) p = p % 3 return p end
print("% to the last parameter", modulo(5))
local function paren(a, p) p = (tostring(a)) return a, p end
print("parenthesised call", paren(1, 2))
local function neg(p) p = -p return p end
print("unary minus", neg(5))
local function first(a, b) a = a .. "x" return a, b end
print("first parameter", first("a", "b"))
local function pack(p) p = {unpack(p)} return #p end
print("constructor of a call", pack({1, 2, 3}))
local obj = {v = 1}
function obj:meth() self = (setmetatable({}, {__index = self})) return self.v end
print("self", obj:meth())
local function plain(p) p = tostring(p) return p end
print("unparenthesised call", plain(4))
local function vararg(...) local x, y = 1, 2 x = (...) return x, y end
print("parenthesised vararg", vararg(3))
local function varparam(a, b, ...) a = (...) return a, b end
print("vararg to a parameter", varparam(1, 2, 3))
local function none(...) local x, y, z = 1, 2, 3 y = (...) return x, y, z end
print("no vararg", none())
