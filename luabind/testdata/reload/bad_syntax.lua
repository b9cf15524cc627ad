-- a syntax error on line 3
return {
  onUpdate = function(self) self.count = = 1 end,
}
