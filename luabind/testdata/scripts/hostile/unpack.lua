-- hostile/unpack.lua: unpack of a huge range.
return {
  onUpdate = function(self, ctx)
    return unpack({}, 1, 1e8)
  end,
}
