-- Size limits and format checks. Run with Limits{MaxSize = 1 MiB}.

local MiB = 1024 * 1024

local function fails(what, want, f, ...)
  local ok, err = pcall(f, ...)
  assert(not ok, what .. ": no error")
  assert(err:find(want, 1, true), what .. ": got " .. tostring(err) .. ", want " .. want)
end

assert(#string.rep("x", MiB) == MiB, "rep at the limit")
assert(#string.rep("ab", MiB / 2) == MiB, "rep of two bytes at the limit")
assert(string.rep("x", 0) == "" and string.rep("x", -5) == "", "rep of nothing")
fails("rep past the limit", "string.rep: result too large (1048577 bytes, limit 1048576)", string.rep, "x", MiB + 1)
fails("rep far past the limit", "result too large (1410065408 bytes", string.rep, "x", 1e10)
fails("rep as a method", "result too large", function() return ("x"):rep(1e10) end)

local half = string.rep("x", MiB / 2)
assert(#string.gsub(half, "x", "yy") == MiB, "gsub at the limit")
fails("gsub past the limit", "string.gsub: result too large (limit 1048576 bytes)", string.gsub, half .. "x", "x", "yy")
fails("gsub by function", "string.gsub: result too large", string.gsub, half, "x", function() return "zzz" end)

assert(#string.format("%s%s", half, half) == MiB, "format at the limit")
fails("format past the limit", "string.format: result too large", string.format, "%s%s%s", half, half, "x")
fails("format of %q past the limit", "string.format: result too large", string.format, "%q", half .. half)
assert(string.format("%5.1f|%-3d|%q", 2.25, 7, "a\n") == "  2.2|7  |\"a\\\n\"", "format as Lua 5.1")
fails("long width", "invalid format (width or precision too long)", string.format, "%100d", 1)
fails("long precision", "invalid format (width or precision too long)", string.format, "%.100f", 1)
fails("repeated flags", "invalid format (repeated flags)", string.format, "%------5d", 1)
fails("table as a number", "bad argument #2 to format (number expected, got table)", function() return string.format("%d", {}) end)
fails("table as a string", "bad argument #2 to format (string expected, got table)", function() return string.format("%s", {}) end)
