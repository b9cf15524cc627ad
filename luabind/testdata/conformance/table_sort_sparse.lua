-- Proves table.sort sorts 1..#t only, leaving far keys alone, with and
-- without a comparator.
local t = {5, 3, 8, 1}
t[100000] = 0
table.sort(t)
print("sorted", table.concat(t, ","), t[100000])
table.sort(t, function(a, b) return a > b end)
print("descending", table.concat(t, ","))
local names = {"b", "a", "c", [50000] = "z"}
table.sort(names)
print("strings", table.concat(names, ","), #names)
