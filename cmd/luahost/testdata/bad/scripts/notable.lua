-- Compiles and runs, but returns no table.
return 42
