-- onDestroy fails at shutdown: reported, and the other instances still
-- get their onDestroy.
return {
  onDestroy = function(self, ctx)
    error({ "a table as the error value" })
  end,
}
