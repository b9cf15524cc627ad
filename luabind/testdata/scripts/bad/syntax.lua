return {
  onUpdate = function(self)
    self.x = end
}
