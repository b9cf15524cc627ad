-- messages/syntax/unclosed_string.lua: a string not closed on its line.
-- want: 3: unfinished string near '"hello)'
print("hello)
print("next")
