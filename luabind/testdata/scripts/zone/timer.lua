-- timer makes a timer on its first update and prints its id, and prints
-- again when it fires.
return {
  onUpdate = function(self, ctx)
    if not self.id then
      self.id = ctx.after(0.15, "ring")
      print("made", self.id)
    end
  end,
  ring = function(self, ctx) print("rang", self.id) end,
}
