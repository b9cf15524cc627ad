-- A module for require.lua found as lib/pkg/init.lua.
return {kind = "package", name = ...}
