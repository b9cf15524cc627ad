-- messages/call_field.lua: calling a missing library function names the
-- field.
-- want: 6: attempt to call a nil value (field 'clamp')
return {
  onCreate = function(self, ctx)
    print(math.clamp(5, 0, 1))
  end,
}
