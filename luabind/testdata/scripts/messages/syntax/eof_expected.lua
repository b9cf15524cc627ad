-- messages/syntax/eof_expected.lua: an end too many.
-- want: 5: <eof> expected near 'end'
local a = 1
print(a)
end
