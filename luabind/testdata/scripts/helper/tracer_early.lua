-- helper/tracer_early.lua: a tracer of priority -10.
return require("lib.tracer")(-10)
