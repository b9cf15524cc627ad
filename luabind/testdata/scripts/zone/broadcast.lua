-- broadcast sends "news" in frame 1 and prints the news it hears with the
-- frame it hears them in: a broadcast arrives at the start of the next
-- frame, not at once.
return {
  onUpdate = function(self, ctx)
    if ctx.frame == 1 then
      ctx.broadcast("news", { from = ctx.frame })
      print("sent in", ctx.frame)
    end
  end,
  events = {
    news = function(self, ctx, data) print("heard", data.from, "in", ctx.frame) end,
  },
}
