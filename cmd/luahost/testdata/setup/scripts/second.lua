-- Listed after suicide on the doomed entity: never attached, so it never
-- prints.
return {
  onCreate = function(self, ctx)
    print("second", "created on", ctx.entity:name())
  end,
}
