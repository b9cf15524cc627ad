-- load and loadstring compile source text in the script's environment;
-- binary chunks ("\27Lua...") and huge sources are refused with nil and a
-- message, like any load failure.
local check = require("lib.check")

return {
  onCreate = function(self, ctx)
    local f = assert(load("return 1 + 1"))
    check.eq(f(), 2, "load of source")
    local g = assert(loadstring("fromLoad = 5"))
    g()
    check.eq(fromLoad, 5, "a loaded chunk shares the script's globals")
    local pieces = { "return ", "4", "2" }
    local h = assert(load(function() return table.remove(pieces, 1) end))
    check.eq(h(), 42, "load from a reader function")

    local binary = "\27LuaQ\0\1\4\8\4\8\0"
    local fn, err = load(binary)
    check.eq(fn, nil, "load of a binary chunk")
    check.truthy(err:find("binary", 1, true), "says why: " .. tostring(err))
    fn, err = loadstring(binary)
    check.eq(fn, nil, "loadstring of a binary chunk")
    check.truthy(err:find("binary", 1, true), "says why: " .. tostring(err))
    pieces = { "\27Lu", "aQ\0" }
    fn, err = load(function() return table.remove(pieces, 1) end)
    check.eq(fn, nil, "a binary chunk in pieces")

    fn, err = load("x = = 1", "=snippet")
    check.eq(fn, nil, "a syntax error is returned, not raised")
    check.truthy(err:find("snippet:1:", 1, true), "with its line: " .. tostring(err))

    local big = string.rep("-", 1024 * 1024 + 1)
    fn, err = load(big)
    check.eq(fn, nil, "a source over 1 MiB")
    check.truthy(err:find("too large", 1, true), "says why: " .. tostring(err))
    check.fails("string or function expected", load, 5)
    done()
  end,
}
