-- hostile/load_reader.lua: a load whose reader never returns. load runs
-- the reader protected, as Lua 5.1 does, but the budget's stop is not
-- load's failure: it passes, and the callback is stopped.
return {
  onUpdate = function(self, ctx)
    local f, err = load(function() while true do end end)
    print("caught", err)
  end,
}
