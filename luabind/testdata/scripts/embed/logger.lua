-- embed/logger.lua: logs a line with ctx.log in its first frame and fails
-- in its second (TestSlog): both reach the slog.Logger with the script,
-- entity and frame as attributes.
return {
  onUpdate = function(self, ctx)
    if ctx.frame == 1 then
      ctx.log("hello", 42)
    else
      error("boom")
    end
  end,
}
