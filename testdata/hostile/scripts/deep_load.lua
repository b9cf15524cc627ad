-- Chunks of 1 MiB that nest half a million levels deep: gopher-lua's
-- parser and compiler took seconds and gigabytes on them, outside any
-- budget. Each is refused at once, as Lua 5.1 refuses them.
return {
  onUpdate = function(self, ctx)
    local bombs = {
      "return " .. ("("):rep(500000) .. "1" .. (")"):rep(500000),
      "return f" .. ("()"):rep(500000),
      "return a" .. ("..a"):rep(330000),
      ("do "):rep(250000) .. ("end "):rep(10),
    }
    for _, src in ipairs(bombs) do
      local f, err = loadstring(src)
      assert(f == nil, "a bomb compiled")
      print("refused", (err:gsub("^.-:1: ", "")))
    end
    error("all refused")
  end,
}
