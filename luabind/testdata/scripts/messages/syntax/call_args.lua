-- messages/syntax/call_args.lua: two arguments without a comma between.
-- want: 3: ')' expected near '"b"'
print("a" "b")
