-- Keeps attaching a script whose onCreate never returns, a callback
-- nested in this one. Each onCreate runs on its own clock while this onUpdate's
-- keeps running, so this onUpdate is stopped within its own budget, never
-- given a fresh one, and faulted at the attach line; no onCreate is blamed.
return {
  onUpdate = function(self, ctx)
    for i = 1, 200 do
      ctx.entity:attach("lib/create_forever")
    end
  end,
}
