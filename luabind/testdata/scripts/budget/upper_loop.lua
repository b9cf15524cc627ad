-- budget/upper_loop.lua: a few instructions a turn, each a string.upper
-- of 16 MiB: the budget counts the bytes each call goes through, so the
-- loop stops after a handful of turns, not after millions.
return {
  onUpdate = function(self, ctx)
    local s = string.rep("a", 16 * 1024 * 1024 - 1)
    while true do
      s = s:upper():lower()
    end
  end,
}
