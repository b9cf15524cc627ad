-- base keeps the score: kills score, leaks cost; it publishes the score
-- on the blackboard and prints it at the end.
return {
  properties = { score = 0, kills = 0, leaks = 0 },
  events = {
    kill = function(self, ctx, data)
      self.kills = self.kills + 1
      self.score = self.score + 10
      ctx.blackboard.score = self.score
      print("base", ctx.frame, "kill by", data.by:name(), "total", self.kills)
    end,
    leak = function(self, ctx, data)
      self.leaks = self.leaks + 1
      self.score = self.score - 5 * data.hp
      ctx.blackboard.score = self.score
      print("base", ctx.frame, "leak of", data.who, "hp", data.hp)
    end,
  },
  onDestroy = function(self, ctx)
    print("final score", self.score, "kills", self.kills, "leaks", self.leaks)
  end,
}
