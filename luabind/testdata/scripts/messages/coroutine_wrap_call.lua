-- messages/coroutine_wrap_call.lua: a call of nil inside a wrapped
-- coroutine is worded like reference Lua with its culprit, not in
-- gopher-lua's words ("attempt to call a non-function object"). The
-- wrapper raises it again with its caller's line first, as Lua 5.1 does.
-- want: 9: testdata/scripts/messages/coroutine_wrap_call.lua:8: attempt to call a nil value (local 'missing')
return {
  onCreate = function(self, ctx)
    local run = coroutine.wrap(function() local missing; missing() end)
    run()
  end,
}
