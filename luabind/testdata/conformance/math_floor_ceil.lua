-- Proves math.floor and math.ceil on halves, negatives, huge values and
-- numeric strings, as Lua 5.1 prints them.
print("halves", math.floor(0.5), math.ceil(0.5), math.floor(-0.5), math.ceil(-1.5))
print("huge", math.floor(1e300), math.ceil(-1e300), math.floor(2 ^ 53 + 0.5))
print("strings", math.floor("7.9"), math.ceil("-7.9"), math.floor(" 3 "))
print("inf", math.floor(math.huge), math.ceil(-math.huge))
print("idiom round", math.floor(2.5 + 0.5), math.floor(3.49 + 0.5), math.floor(-2.5 + 0.5))
