-- messages/error_table.lua: an error object that is a table is reported
-- by its type at the line that raised it; its __tostring is not run (it
-- would run after the callback, outside its budget: this one never ends).
-- want: 7: (error object is a table value)
return {
  onCreate = function(self, ctx)
    error(setmetatable({}, { __tostring = function() while true do end end }))
  end,
}
