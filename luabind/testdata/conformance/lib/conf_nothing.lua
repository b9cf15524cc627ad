-- A module for require.lua that returns nothing.
nothing_ran = true
