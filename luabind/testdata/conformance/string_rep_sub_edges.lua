-- Proves string.rep and string.sub at their edges: zero and negative
-- counts, positions past either end, and empty strings.
print("rep zero", "[" .. ("ab"):rep(0) .. "]", "[" .. ("ab"):rep(-3) .. "]")
print("rep empty", "[" .. (""):rep(5) .. "]")
print("sub edges", ("hello"):sub(-3, -2), ("hello"):sub(2, 100), ("hello"):sub(-100, -4))
print("sub empty", "[" .. ("hello"):sub(4, 2) .. "]", "[" .. (""):sub(1) .. "]")
print("sub zero", ("hello"):sub(0, 0) == "", ("hello"):sub(0, 1))
