-- Library functions called with bad arguments, each twice: straight
-- from pcall, where Lua 5.1 gives no position and names the function
-- '?', and from Lua code, where the call site names it and the message
-- has the caller's position. An argument left out is "no value".
local cases = {
  {"rep", string.rep},
  {"sub", string.sub},
  {"byte", string.byte, {}},
  {"char", string.char, "x"},
  {"find", string.find, "x", "("},
  {"match", string.match, "x", "%"},
  {"gsub", string.gsub, "x", "x", true},
  {"gsub repl", string.gsub, "x", "x", "%2"},
  {"gmatch", string.gmatch},
  {"format opt", string.format, "%y", 1},
  {"format arg", string.format, "%d", {}},
  {"format missing", string.format, "%s %s", 1},
  {"upper", string.upper},
  {"concat", table.concat, {{}}},
  {"concat2", table.concat, {1, 2}, ",", 1, 3},
  {"insert", table.insert, {}, 1, 2, 3},
  {"insert1", table.insert},
  {"remove", table.remove},
  {"sort", table.sort, {3, 2, 1}, 5},
  {"sort bad", table.sort, {3, {}, 1}},
  {"maxn", table.maxn},
  {"unpack", unpack},
  {"unpack2", unpack, {}, "x"},
  {"select", select},
  {"select0", select, 0},
  {"select-5", select, -5, 1},
  {"tostring", tostring},
  {"tonumber", tonumber},
  {"setmetatable", setmetatable, 1, {}},
  {"setmetatable2", setmetatable, {}, 1},
  {"getmetatable", getmetatable},
  {"rawget", rawget, 1},
  {"rawset", rawset, {}, nil, 1},
  {"rawequal", rawequal, 1},
  {"next", next, 1},
  {"ipairs", ipairs},
  {"pairs", pairs},
  {"type", type},
  {"assert", assert, false},
  {"assert msg", assert, nil, "boom"},
  {"assert tbl", assert, false, {}},
  {"error", error, "e"},
  {"error lvl2", error, "e", 2},
  {"error nil", error},
  {"math.floor", math.floor},
  {"math.max", math.max},
  {"math.random", math.random, 2, 1},
  {"math.random3", math.random, 1, 2, 3},
  {"coroutine.create", coroutine.create, 1},
  {"coroutine.resume", coroutine.resume, 1},
  {"coroutine.status", coroutine.status},
  {"coroutine.wrap", coroutine.wrap},
  {"coroutine.yield", coroutine.yield, 1},
  {"loadstring", loadstring},
  {"loadstring bad", loadstring, "x="},
  {"string.len", string.len},
  {"os.time", os.time, {}},
  {"os.date", os.date, 1},
  {"setfenv", setfenv, 1, 1},
  {"getfenv", getfenv, "x"},
  {"xpcall", xpcall},
  {"pcall", pcall},
  {"print tostring", print, setmetatable({}, {__tostring = function() return 1 end})},
  {"string.rep big", string.rep, "x", -5},
  {"#", string.len, "abc"},
}
local function fromLua(f, ...)
  local args, n = {...}, select("#", ...)
  return pcall(function() return f(unpack(args, 1, n)) end)
end
for _, c in ipairs(cases) do
  print(c[1], pcall(c[2], unpack(c, 3, table.maxn(c))))
end
for _, c in ipairs(cases) do
  print(c[1], fromLua(c[2], unpack(c, 3, table.maxn(c))))
end
