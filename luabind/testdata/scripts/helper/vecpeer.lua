-- helper/vecpeer.lua: in its own Lua state, checks that a vector sent as
-- event data arrives as a vector, and answers with one.
return {
  events = {
    vec = function(self, ctx, data)
      ctx.blackboard.peerSawVector = getmetatable(data.at) == "vec3" and data.at:length() == 5
      return data.at * 2
    end,
  },
}
