-- Misuse of the API from Lua (wrong argument types, bad names, values
-- that are not plain data) raises a Lua error with a precise message; it
-- never escapes as a Go panic.
local check = require("lib.check")

return {
  onUpdate = function(self, ctx)
    if ctx.frame ~= 1 then return end
    local e = ctx.entity
    local cases = {
      { "number expected", function() e:setPosition("a", 1, 2) end },
      { "number expected", function() e:setRotation(1) end },
      { "number expected", function() e:setScale(1, 2, {}) end },
      { "entity expected", function() e.kill({}) end },
      { "entity expected", function() e.position("entity(1:1)") end },
      { "entity expected", function() e.id(nil) end },
      { "string expected", function() e:attach() end },
      { "invalid script name", function() e:attach("../x") end },
      { "invalid script name", function() e:attach("/etc/passwd") end },
      { 'script "helper/nope" not found', function() e:attach("helper/nope") end },
      { "cannot store a function", function() e:attach("helper/probe", { f = print }) end },
      { "string expected", function() e:detach() end },
      { "event name must be a string, not nil", function() e:send() end },
      { "event name must be a string, not number", function() e:send(42, "hi") end },
      { "cannot store a function", function() e:send("x", { print }) end },
      { "string expected", function() ctx.find() end },
      { "string expected", function() ctx.find({}) end },
      { "event name must be a string, not nil", function() ctx.emit() end },
      { "event name must be a string, not number", function() ctx.emit(42) end },
      { "cannot store a function", function() ctx.emit("x", print) end },
      { "cannot store a cycle", function() local t = {} t[1] = t ctx.emit("x", t) end },
      { "number expected, got string", function() ctx.emit("x", nil, "all") end },
      { "table expected", function() ctx.spawn(5) end },
      { "unknown spec field", function() ctx.spawn({ bogus = 1 }) end },
      { "spec.name must be a string", function() ctx.spawn({ name = 5 }) end },
      { "spec.position", function() ctx.spawn({ position = "here" }) end },
      { "component 2 must be a number", function() ctx.spawn({ scale = { 1, "a", 1 } }) end },
      { "spec.scripts must be a list", function() ctx.spawn({ scripts = "helper/probe" }) end },
      { "spec.scripts[1]", function() ctx.spawn({ scripts = { 5 } }) end },
      { "spec.scripts[1].script", function() ctx.spawn({ scripts = { { props = {} } } }) end },
      { "cannot store a function", function() ctx.spawn({ scripts = { { script = "helper/probe", props = { print } } } }) end },
      { "string expected", function() ctx.blackboard[{}] = 1 end },
      { "string expected", function() return ctx.blackboard[{}] end },
      { "string expected", function() require() end },
      { "cannot store a function", function() echo(print) end },
      { "attempt to call", function() ctx.nothing() end },
      { "attempt to index", function() return e.nothing.x end },
    }
    for i, c in ipairs(cases) do
      local ok, err = pcall(c[2])
      check.eq(ok, false, "case " .. i .. " (" .. c[1] .. ") raised")
      err = tostring(err)
      check.truthy(err:find(c[1], 1, true), "case " .. i .. ": want " .. c[1] .. ", got " .. err)
      check.truthy(not err:find("runtime error", 1, true) and not err:find("goroutine", 1, true),
        "case " .. i .. " is a Lua error, not a Go panic: " .. err)
      check.truthy(#err < 1024, "case " .. i .. ": a short message")
    end
    -- nothing was spawned by the refused specs
    check.eq(ctx.find("ghost"), nil, "no ghost")
    done()
  end,
}
