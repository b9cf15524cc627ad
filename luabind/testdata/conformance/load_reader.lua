-- Proves load with a reader function as Lua 5.1: an error the reader
-- raises is load's nil and message, a piece that is not a string fails
-- with "reader function must return a string", a number is its text,
-- pieces end at nil or an empty string.
print("1 reader error", pcall(load, function() error("rd") end))
print("2 reader table", pcall(load, function() return {} end))
print("2b reader table", select(2, load(function() return {} end)) == nil)
print("3 reader true", pcall(load, function() return true end))
local n = 0
print("4 reader number", load(function() n = n + 1; if n == 1 then return 5 end end))
local parts, i = { "return ", "1 ", "+ ", 41 }, 0
local f = load(function() i = i + 1; return parts[i] end)
print("5 pieces", f())
local j = 0
print("6 empty string ends", load(function() j = j + 1; if j == 1 then return "return 2" elseif j == 2 then return "" else return " + 1" end end)())
print("7 error table", select("#", load(function() error({}) end)), type(select(2, load(function() error({}) end))))
print("8 empty chunk", type(load(function() return nil end, "=mine")))
print("9 syntax", load(function() n = n + 1; if n < 4 then return "return (" end end, "=r"))
