-- helper/echoer.lua: every "echo" emits another "echo", deeper and deeper.
return {
  events = {
    echo = function(self, ctx, depth)
      ctx.blackboard.depth = depth
      ctx.emit("echo", depth + 1)
    end,
  },
}
