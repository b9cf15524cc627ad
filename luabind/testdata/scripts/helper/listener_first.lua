-- helper/listener_first.lua: a "ping" listener of priority -5.
return require("lib.listener")(-5)
