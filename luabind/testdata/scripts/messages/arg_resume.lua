-- messages/arg_resume.lua: the sandbox's coroutine.resume names itself in
-- its argument errors.
-- want: 6: bad argument #1 to 'resume' (coroutine expected)
return {
  onCreate = function(self, ctx)
    coroutine.resume(nil)
  end,
}
