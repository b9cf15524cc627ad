-- messages/call_local.lua: calling a nil local names the local.
-- want: 6: attempt to call a nil value (local 'fire')
return {
  onCreate = function(self, ctx)
    local fire = self.fire
    fire(self)
  end,
}
