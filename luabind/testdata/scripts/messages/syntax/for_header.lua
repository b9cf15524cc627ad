-- messages/syntax/for_header.lua: a for that is neither numeric nor
-- generic.
-- want: 4: '=' or 'in' expected near 'do'
for i do end
