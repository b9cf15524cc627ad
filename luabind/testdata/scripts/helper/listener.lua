-- helper/listener.lua: a "ping" listener of priority 0 (see lib/listener.lua).
return require("lib.listener")(0)
