-- Growth across frames kept in timers' data, not in self: a timer a
-- frame, never due, with 8 MiB of data. The ceiling counted only self
-- and the states, never faulted, and the process grew by gigabytes.
return {
  onUpdate = function(self, ctx)
    ctx.after(1e9, "never", { blob = ("x"):rep(2 ^ 23 - 16) .. ctx.frame })
  end,
  never = function(self, ctx) end,
}
