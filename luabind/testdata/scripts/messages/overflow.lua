-- messages/overflow.lua: runaway recursion in a callback is Lua's "stack
-- overflow" at the line that overflowed, though the call stack is full
-- when it happens (callbacks are called without a wrapper: direct.go).
-- want: 6: stack overflow
local function down(n)
  return down(n + 1) + 1
end

return {
  onCreate = function(self, ctx)
    down(1)
  end,
}
