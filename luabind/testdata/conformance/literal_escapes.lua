-- Proves decimal escapes read at most three digits (\1234 is \123 then
-- "4"), \0 forms, and escapes at 255, as in Lua 5.1.
print("three digits", ("\1234"):byte(1, -1))
print("zero forms", #"\0", #"\00", #"\000", ("\0001"):byte(1, -1))
print("max", ("\255"):byte(), ("\2550"):byte(1, -1))
print("short", ("\9\10"):byte(1, -1))
print("loadstring 256", select(2, loadstring('return "\\256"')))
print("loadstring 300", select(2, loadstring('return "ab\\300"')))
