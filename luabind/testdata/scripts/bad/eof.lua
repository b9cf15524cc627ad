-- a file that ends inside a function
return {
  onUpdate = function(self)
