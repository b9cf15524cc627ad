-- A pattern that backtracks for minutes is interrupted at the budget, from
-- inside the Go builtin.
return {
  onUpdate = function(self, ctx)
    local s = ("a"):rep(20000)
    s:find(".-.-.-.-.-b")
  end,
}
