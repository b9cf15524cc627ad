-- A module for require.lua that registers itself in package.loaded and
-- returns nothing.
package.loaded[...] = {registered = true}
