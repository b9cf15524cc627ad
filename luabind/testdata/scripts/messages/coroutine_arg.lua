-- messages/coroutine_arg.lua: an argument error inside a coroutine names
-- the function as its call site does, quoted.
-- want: 7: bad argument #1 to 'rep' (string expected, got table)
return {
  onCreate = function(self, ctx)
    local co = coroutine.create(function()
      return string.rep({}, 2)
    end)
    local ok, err = coroutine.resume(co)
    assert(not ok)
    error(err, 0)
  end,
}
