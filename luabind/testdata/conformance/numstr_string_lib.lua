-- Proves the string library converts numeric strings wherever it takes a
-- number: rep counts, char codes, find/match/gmatch starts, gsub limits,
-- format's numeric conversions.
print("rep", ("ab"):rep("3"), string.rep("x", " 2 "), ("y"):rep("0"))
print("char", string.char("72", "105"), string.char(" 33 "))
print("find init", ("banana"):find("a", "3"), ("banana"):find("na", "-2"))
print("find plain", ("a.b"):find(".", "1", 1))
print("match init", ("key=val"):match("%w+", "5"))
print("gsub limit", ("aaaa"):gsub("a", "b", "2"))
print("gsub float limit", ("aaaa"):gsub("a", "b", 2.5))
print("format d", string.format("%d %5d %x", "42", "7", "255"))
print("format f", string.format("%.2f %g %e", "3.14159", "1e3", "2"))
print("format c", string.format("%c%c", "72", 105))
print("format i o", string.format("%i %o %X", "8", "8", "3054"))
print("upper numbers", string.upper(12), string.len(1234), string.reverse(123))
print("bad rep", pcall(function() return string.rep("x", "two") end))
print("bad char", pcall(function() return string.char("A") end))
