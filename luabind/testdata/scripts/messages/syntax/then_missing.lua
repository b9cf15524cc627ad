-- messages/syntax/then_missing.lua: an if without then says what was
-- expected.
-- want: 5: 'then' expected near 'print'
local a = true
if a print("a") end
