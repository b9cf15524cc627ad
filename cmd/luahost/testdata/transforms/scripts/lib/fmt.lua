-- fmt.v(x, y, z) formats a vector: "(1, 2, 3)".
return {
  v = function(x, y, z) return string.format("(%g, %g, %g)", x, y, z) end,
}
