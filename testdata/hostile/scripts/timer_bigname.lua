-- Timers naming a 16 MiB string: the report of a timer that names no
-- function quoted the name whole, escaped to four times its size, and the
-- host ran out of memory. Reports quote a script's strings cut short.
return {
  onCreate = function(self, ctx)
    local big = ("\1"):rep(16 * 1024 * 1024)
    for _ = 1, 100 do
      ctx.after(0, big)
    end
  end,
}
