-- example/banker.lua: calls the Go function the Register example exposes.
return {
  onCreate = function(self, ctx)
    local receipt = deposit(ctx.entity:name(), 25)
    print("balance", receipt.balance)
    local ok, err = pcall(deposit, "ghost", -1)
    print(err)
  end,
}
