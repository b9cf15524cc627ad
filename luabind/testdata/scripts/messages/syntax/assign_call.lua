-- messages/syntax/assign_call.lua: a call cannot be assigned to.
-- want: 3: unexpected symbol near '='
ctx.find("hero") = nil
