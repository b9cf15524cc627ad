-- An onUpdate that asks Go for the goroutine's pprof labels (the test's
-- registered labels function) and prints them.
return {
  onUpdate = function(self, ctx) print("labels: " .. labels()) end,
}
