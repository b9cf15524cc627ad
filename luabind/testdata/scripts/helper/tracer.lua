-- helper/tracer.lua: a tracer of priority 0.
return require("lib.tracer")(0)
