-- An onCreate that waits in Go (the test's registered wait) for 20 ms.
return {
  onCreate = function(self, ctx) wait(20) end,
}
