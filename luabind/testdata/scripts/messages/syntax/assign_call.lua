-- messages/syntax/assign_call.lua: a call cannot be assigned to.
-- want: 3: syntax error near '='
ctx.find("hero") = nil
