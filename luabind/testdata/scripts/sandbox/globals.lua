-- Everything a script can reach from _G, and nothing more: an allow-list of
-- every global and every library function. Something new (io, debug,
-- channel, package, os.execute, ...) fails this test until it is judged
-- safe and added here.
local check = require("lib.check")

local allowed = {
  _G = "table", _VERSION = "string",
  assert = "function", collectgarbage = "function", error = "function",
  getfenv = "function", getmetatable = "function", ipairs = "function",
  load = "function", loadstring = "function", next = "function",
  pairs = "function", pcall = "function", print = "function",
  rawequal = "function", rawget = "function", rawset = "function",
  require = "function", select = "function", setfenv = "function",
  setmetatable = "function", tonumber = "function", tostring = "function",
  type = "function", unpack = "function", xpcall = "function",
  vec3 = "function", -- luahost's vectors
  string = "table", table = "table", math = "table", coroutine = "table", os = "table",
  debug = "table", package = "table",
  -- registered by the test runner (Host.Register)
  done = "function", echo = "function", fail = "function",
}

local libraries = {
  string = { "byte", "char", "dump", "find", "format", "gfind", "gmatch", "gsub", "len",
    "lower", "match", "rep", "reverse", "sub", "upper", "__index", "__metatable" },
  table = { "concat", "foreach", "foreachi", "getn", "insert", "maxn", "remove", "sort" },
  math = { "abs", "acos", "asin", "atan", "atan2", "ceil", "cos", "cosh", "deg", "exp",
    "floor", "fmod", "frexp", "huge", "ldexp", "log", "log10", "max", "min", "mod", "modf",
    "pi", "pow", "rad", "random", "randomseed", "sin", "sinh", "sqrt", "tan", "tanh" },
  coroutine = { "create", "resume", "running", "status", "wrap", "yield" },
  os = { "clock", "date", "difftime", "time" },
  debug = { "getinfo", "traceback" },
  package = { "loaded", "preload" },
}

return {
  onCreate = function(self, ctx)
    check.eq(_G._G, _G, "_G")
    for k, v in pairs(_G) do
      check.eq(type(v), allowed[k], "global " .. tostring(k))
    end
    for lib, names in pairs(libraries) do
      local ok = {}
      for _, n in ipairs(names) do ok[n] = true end
      for k in pairs(_G[lib]) do
        check.truthy(ok[k], lib .. "." .. tostring(k) .. " is not on the allow-list")
      end
    end

    -- the holes, one by one
    for _, name in ipairs({ "io", "channel", "dofile", "loadfile",
      "module", "newproxy", "_printregs", "_GOPHER_LUA_VERSION", "loadlib" }) do
      check.eq(_G[name], nil, name)
      check.eq(rawget(_G, name), nil, name .. " (raw)")
    end
    check.fails("attempt to call", function() dofile("/etc/passwd") end)
    check.fails("attempt to call", function() loadfile("/etc/passwd") end)
    check.eq(package.loadlib, nil, "package.loadlib")
    check.eq(package.path, nil, "package.path")
    check.fails("attempt to index", function() return io.open end)
    for _, name in ipairs({ "getregistry", "getlocal", "setlocal", "getupvalue", "setupvalue",
      "sethook", "gethook", "getmetatable", "setmetatable", "getfenv", "setfenv", "debug" }) do
      check.eq(debug[name], nil, "debug." .. name)
    end
    check.fails("does not support", string.dump, print)
    check.eq(getmetatable(_G), nil, "_G has no metatable to reach through")
    done()
  end,
}
