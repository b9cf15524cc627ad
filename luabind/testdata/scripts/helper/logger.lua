-- helper/logger.lua: ctx.log names the script by its name field.
return {
  name = "Logger",
  onCreate = function(self, ctx)
    ctx.log("ready", { 1 } ~= nil)
  end,
}
