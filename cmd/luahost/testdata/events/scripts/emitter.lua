-- One dispatch per frame. Priority -10: before the listeners update.
return {
  priority = -10,
  onUpdate = function(self, ctx)
    local f = ctx.frame
    if f == 1 then
      print(f, "emit ping ->", ctx.emit("ping", "hello"))
    elseif f == 2 then
      print(f, "emit stop ->", ctx.emit("ping", { stop = true, n = 2 }))
    elseif f == 3 then
      print(f, "emit mask 0 ->", ctx.emit("ping", "nobody", 0))
      print(f, "emit mask 4 ->", ctx.emit("ping", "four", 4))
    elseif f == 4 then
      print(f, "send to c ->", ctx.find("c"):send("ping", "just c"))
      print(f, "send to emitter ->", ctx.entity:send("ping", "no handler"))
    elseif f == 5 then
      print(f, "emit unheard ->", ctx.emit("nobody-listens", 1))
      print(f, "emit nest ->", ctx.emit("ping", "nest"))
    elseif f == 6 then
      -- A dying entity's handlers are not called.
      print(f, "kill a", ctx.find("a"):kill())
      print(f, "emit after kill ->", ctx.emit("ping", { list = { 1, 2 }, pos = { x = 1 } }))
    end
  end,
}
