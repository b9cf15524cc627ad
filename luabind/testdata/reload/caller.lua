-- reload/caller: asks Go to reload a script in the middle of a frame.
return {
  onUpdate = function(self, ctx)
    local ok, err = pcall(reloadNow)
    ctx.blackboard.reloadError = tostring(err)
  end,
}
