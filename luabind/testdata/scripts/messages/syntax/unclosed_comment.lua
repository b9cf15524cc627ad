-- messages/syntax/unclosed_comment.lua: a long comment never closed.
-- want: 5: unfinished long comment (starting at line 3) near <eof>
--[[ commented out
print("x")
