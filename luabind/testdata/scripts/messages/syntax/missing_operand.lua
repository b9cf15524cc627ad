-- messages/syntax/missing_operand.lua: an operator without its right
-- operand at the end of the file.
-- want: 5: unexpected symbol near <eof>
local x = 1 +
