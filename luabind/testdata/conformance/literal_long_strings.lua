-- Proves long strings and comments of every level read as in Lua 5.1:
-- [==[ ]] ]==] holds a shorter closer, a first newline is dropped, and
-- higher levels may contain [[ freely.
local a = [==[
x]]y]==]
print("level 2", a)
local b = [=[ [[inner]] ]=]
print("inner brackets at level 1", b)
--[==[ a comment with [[ and ]] inside ]==]
print("comment levels", #[[
]], #[[

two]])
print("loadstring levels", loadstring("return [===[a]=]b]===]")())
