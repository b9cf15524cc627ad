-- Proves `x = <call> and <expr>` assigned to an existing local gets the
-- call's falsy result, for calls returning nil, false, nothing or several
-- values, and methods.
local function none() end
local function falsy() return false end
local function several() return nil, 2, 3 end
local function truthy() return "yes" end
local obj = {get = function(self) return self.v end, v = nil}
local x = "old"
x = none() and 1
print("no value", x)
x = "old"
x = falsy() and 1
print("false result", x)
x = "old"
x = several() and 1
print("first of several", x)
x = "old"
x = truthy() and 1
print("truthy result", x)
x = "old"
x = obj:get() and 1
print("method nil", x)
obj.v = false
x = "old"
x = obj:get() and 1
print("method false", x)
x = "old"
x = (none()) and 1
print("parenthesized call", x)
x = "old"
x = select(2, nil, nil) and 1
print("library call", x)
