-- returns a number
return 42
