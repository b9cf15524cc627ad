-- hotreload/lib/mod, version 1: a module two scripts require.
return { value = 1 }
