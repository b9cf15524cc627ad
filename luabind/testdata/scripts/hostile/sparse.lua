-- hostile/sparse.lua: a sparse write far past the array part (completes quickly, in bounded memory).
return {
  onUpdate = function(self, ctx)
    local t = {}
    t[67108863] = true
    t[2 ^ 53] = true
    t[-1] = true
    self.n = #t
  end,
}
