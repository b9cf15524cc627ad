-- Proves collectgarbage answers its options as Lua 5.1 does: 0, the
-- previous pause and step multiplier, an argument error for an option
-- it does not know.
print("collect", collectgarbage(), collectgarbage("collect"))
print("stop restart", collectgarbage("stop"), collectgarbage("restart"))
print("setpause", collectgarbage("setpause", 150), collectgarbage("setpause", 120), collectgarbage("setpause"))
print("setstepmul", collectgarbage("setstepmul", 300), collectgarbage("setstepmul", 250.7))
print("count type", type(collectgarbage("count")))
print("bad", pcall(collectgarbage, "nope"))
print("step with a size", collectgarbage("step", 10))
