-- Proves require as Lua 5.1 does it for modules in the script folder:
-- lib/x.lua, lib/x/init.lua, the name passed to the chunk, one run per
-- state, package.loaded (consulted, filled, self-registration, standard
-- libraries) and package.preload.
local c = require("lib.conf_counter")
print("module value", type(c), c.double(21), c.name)
print("same value again", require("lib.conf_counter") == c, loads_of_counter)
print("loaded entry", package.loaded["lib.conf_counter"] == c)
local p = require("lib.pkg")
print("init.lua module", p.kind, p.name)
print("self registered", require("lib.conf_selfreg").registered)
print("returns nothing gives true", require("lib.conf_nothing"), nothing_ran)
package.preload["virtual"] = function(name) return {from = "preload", name = name} end
local v = require("virtual")
print("preload", v.from, v.name, package.loaded.virtual == v)
package.loaded["fake"] = "pre-filled"
print("loaded consulted first", require("fake"))
package.loaded["lib.conf_counter"] = nil
local c2 = require("lib.conf_counter")
print("cleared entry reloads", c2 ~= c, loads_of_counter)
print("standard libraries", package.loaded.string == string, package.loaded.table == table,
  package.loaded.math == math, package.loaded._G == _G, package.loaded.coroutine == coroutine)
print("missing module", (pcall(require, "lib.does_not_exist")))
print("package fields", type(package.loaded), type(package.preload))
