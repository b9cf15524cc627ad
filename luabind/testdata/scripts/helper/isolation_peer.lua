-- helper/isolation_peer.lua: runs in its own Lua state and reports what it
-- sees of api/isolation's changes (nothing, if states are isolated).
return {
  onCreate = function(self, ctx)
    ctx.blackboard.peer = {
      leak = tostring(leak),
      len = ("abc"):len(),
      upper = ("abc"):upper(),
      shout = tostring(string.shout),
      callable = (pcall(function() return ("abc")() end)),
      index = type(getmetatable("").__index),
      pi = math.pi,
      print = type(print),
      loads = tostring(counter_loads),
    }
    _G.peerGlobal = true
  end,
}
