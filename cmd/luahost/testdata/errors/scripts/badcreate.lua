-- onCreate fails: the instance is faulted and gets no callback at all.
return {
  onCreate = function(self, ctx)
    error("no luck at creation")
  end,
  onUpdate = function(self, ctx)
    print(ctx.frame, "badcreate update")
  end,
  onDestroy = function(self, ctx)
    print(ctx.frame, "badcreate destroy")
  end,
  events = {
    tick = function(self, ctx, data)
      print(ctx.frame, "badcreate hears tick", data)
    end,
  },
}
