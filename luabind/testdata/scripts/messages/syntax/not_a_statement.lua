-- messages/syntax/not_a_statement.lua: an expression that is not a call
-- cannot stand as a statement.
-- want: 5: '=' expected near 'print'
x
print(x)
