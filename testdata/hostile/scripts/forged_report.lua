-- Log lines and error messages with line breaks and terminal escapes
-- wrote lines identical to the host's fault reports, blaming another
-- script. Their control characters are escaped and their lines after the
-- first indented, so no line of theirs passes for a host line.
return {
  onUpdate = function(self, ctx)
    ctx.log("hello\nscripts/other.lua:1: exceeded its 30ms budget in onUpdate\27[1A")
    error("x\nscripts/other.lua:2: exceeded its 30ms budget in onUpdate\r", 0)
  end,
}
