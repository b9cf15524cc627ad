-- Proves loadstring's messages for misplaced operators and incomplete
-- expressions in Lua 5.1's words.
local function try(src) return (select(2, loadstring(src)):gsub("'(<%a+>)'", "%1")) end
print("two operators", try("x = 1 + * 2"))
print("not alone", try("x = not"))
print("unary then close", try("x = (-)"))
print("comparison chain end", try("x = 1 < "))
print("dot dot dot outside", try("function f() return ... end"))
print("concat end", try("x = 'a' .."))
