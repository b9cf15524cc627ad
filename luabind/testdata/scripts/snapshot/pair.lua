-- pair: links its entity to the one named in props.partner (found at
-- create), so a batch export can show how entity values are mapped.
return {
  properties = { partner = "" },
  onCreate = function(self, ctx)
    self.partner = ctx.find(self.partner)
  end,
  onImport = function(self, ctx)
    local p = self.partner
    if type(p) == "string" then
      print("import", ctx.entity:name(), "partner id", p)
    else
      print("import", ctx.entity:name(), "partner", p:name(), p:alive())
    end
  end,
}
