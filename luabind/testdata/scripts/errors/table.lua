-- errors/table.lua: error() with a table value.
return {
  onUpdate = function(self, ctx)
    error({ code = 7, reason = "tables are not messages" })
  end,
}
