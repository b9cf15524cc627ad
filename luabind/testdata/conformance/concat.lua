-- The .. operator: numbers formatted with %.14g, chains evaluated left to
-- right, __concat metamethods called pairwise from the right with the
-- operands untouched, and a bad operand an error.
print(1 .. 2, 1/3 .. "", "x" .. 2^63 .. "y", 10 .. "", -0.5 .. "|")
local log = {}
local function mark(s) log[#log + 1] = s return s end
print(mark("a") .. mark("b") .. mark("c"), table.concat(log))
local mt = {}
mt.__concat = function(a, b)
  local function show(v) if type(v) == "table" then return "T" .. v.n else return type(v) .. ":" .. tostring(v) end end
  return setmetatable({ n = show(a) .. "+" .. show(b) }, mt)
end
local A = setmetatable({ n = "A" }, mt)
local r = 1 .. 2 .. A
print(r.n)
r = A .. 1 .. 2
print(r.n)
r = "x" .. A .. "y" .. 3
print(r.n)
r = (A .. "p") .. "q"
print(r.n)
local ok = pcall(function() return "a" .. nil end)
print("nil operand fails", ok)
ok = pcall(function() return "a" .. {} end)
print("table operand fails", ok)
ok = pcall(function() local t = {} return t .. "a" end)
print("table first fails", ok)
local function three() return "1", "2", "3" end
print("call last operand" .. three())
print(select("#", "a" .. three()))
local function va(...) return "v" .. ... end
print(va("w", "z"))
local s = ""
for i = 1, 10 do s = s .. i .. "," end
print(s)
print(#(("ab"):rep(1000) .. ("cd"):rep(1000)))
