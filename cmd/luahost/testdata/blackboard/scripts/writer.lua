-- Writes and reads the blackboard; values are copied in and out.
local dump = require("lib.dump")

local function try(frame, label, f)
  local ok, err = pcall(f)
  print(frame, label, ok)
  return err
end

return {
  onUpdate = function(self, ctx)
    local bb = ctx.blackboard
    local f = ctx.frame
    if f == 1 then
      print(f, "scene values", bb.difficulty, bb.title, dump(bb.cfg))

      -- Copy out: changing what was read changes only the copy.
      local cfg = bb.cfg
      cfg.speed = 99
      table.insert(cfg.tags, "c")
      cfg.nested.deep = false
      print(f, "after changing my copy", dump(bb.cfg))
      print(f, "two reads are two tables", bb.cfg ~= bb.cfg)

      -- Copy in: changing the table after storing it changes nothing.
      local list = { 10, 20, { x = 1 } }
      bb.list = list
      list[1] = 100
      list[3].x = 2
      print(f, "stored list", dump(bb.list))

      -- Scalars and entity values.
      bb.flag, bb.ratio, bb.word = true, 0.5, "hi"
      bb.who = ctx.entity
      bb.team = { lead = ctx.entity, size = 2 }
      bb.title = nil
      print(f, "scalars", bb.flag, bb.ratio, bb.word, "deleted", bb.title, "missing", bb.nope)
      print(f, "entity round trip", bb.who == ctx.entity, bb.who:name())

      -- Not plain data: an error that names the key; nothing is stored.
      local msg = try(f, "store function", function() bb.fn = function() end end)
      print(f, "error names the key", msg:find("fn", 1, true) ~= nil, "stored", bb.fn)
      local cyc = {}
      cyc.me = cyc
      msg = try(f, "store cycle", function() bb.loop = cyc end)
      print(f, "error names the key", msg:find("loop", 1, true) ~= nil, "stored", bb.loop)
      msg = try(f, "store nested function", function() bb.deep = { a = { b = print } } end)
      print(f, "error names the key", msg:find("deep", 1, true) ~= nil, "stored", bb.deep)
    elseif f == 2 then
      print(f, "reader's counter", bb.counter)
    end
  end,
}
