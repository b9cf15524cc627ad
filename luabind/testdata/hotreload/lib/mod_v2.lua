-- hotreload/lib/mod, version 2: a module two scripts require.
return { value = 2 }
