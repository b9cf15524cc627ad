-- Broadcasts of fresh 16 MiB strings in one callback: the data waits in
-- Go for the next frame, where the memory limit did not look, and a
-- second of them held gigabytes. The limit counts it and stops the loop.
return {
  onUpdate = function(self, ctx)
    local s = ("x"):rep(2 ^ 24 - 16)
    for i = 1, 1000 do
      ctx.broadcast("flood", { blob = s .. i })
    end
  end,
}
