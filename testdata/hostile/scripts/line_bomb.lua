-- print and ctx.log with a hundred arguments of 16 MiB each: one line of
-- 1.6 GiB (8,000 arguments made 128 GiB), built in one Go call that no
-- budget or memory limit could stop. Each line is refused before it is
-- built: longer than the host's string limit.
return {
  onUpdate = function(self, ctx)
    local s = ("x"):rep(2 ^ 24)
    local args = {}
    for i = 1, 100 do args[i] = s end
    local ok, err = pcall(print, unpack(args))
    assert(not ok and err:find("print: line too large"), "print refused")
    ctx.log(unpack(args))
  end,
}
