-- A field vectors do not have: the result of arithmetic is a vector too.
return {
  onUpdate = function(self, ctx, dt)
    local a, b = vec3(1, 2, 3), vec3(4, 5, 6)
    print((b - a).w)
  end,
}
-- want: 5:19: warning: unknown vec3 member 'w'
