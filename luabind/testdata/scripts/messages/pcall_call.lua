-- messages/pcall_call.lua: pcall of a value that cannot be called returns
-- false and says so, as Lua's pcall does.
-- want: 7: attempt to call a nil value
return {
  onCreate = function(self, ctx)
    local ok, err = pcall(nil)
    error(err)
  end,
}
