-- messages/arg_resume.lua: the sandbox's coroutine.resume names itself in
-- its argument errors.
-- want: 6: bad argument #1 to 'resume' (thread expected, got nil)
return {
  onCreate = function(self, ctx)
    coroutine.resume(nil)
  end,
}
