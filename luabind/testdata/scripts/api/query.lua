-- Tags and ctx.query: e:tag/untag/hasTag/tags (sorted), spawn
-- tags, queries by tag, script, name, near + radius and limit (AND),
-- Active entities only, sorted by distance (ties by index) or by index;
-- committed positions; ctx.findAll.
local check = require("lib.check")

local function names(list)
  local out = {}
  for i, e in ipairs(list) do out[i] = e:name() end
  return table.concat(out, " ")
end

return {
  onCreate = function(self, ctx)
    ctx.spawn({ name = "orc", position = { 1, 0, 0 }, tags = { "enemy", "green" }, scripts = { "helper/probe" } })
    ctx.spawn({ name = "elf", position = vec3(0, 2, 0), tags = { "friend" } })
    ctx.spawn({ name = "orc", position = { -1, 0, 0 }, tags = { "enemy" } })
    ctx.spawn({ name = "troll", position = { 30, 0, 0 }, tags = { "enemy" }, scripts = { "helper/probe" } })
    check.fails("spec.tags[1] must be a non-empty string", ctx.spawn, { tags = { 5 } })
    check.fails("spec.tags must be a list", ctx.spawn, { tags = "enemy" })
  end,

  onUpdate = function(self, ctx)
    local e = ctx.entity
    if ctx.frame == 1 then
      e:tag("player")
      e:tag("hero")
      e:tag("hero")
      check.same(e:tags(), { "hero", "player" }, "tags are sorted, without duplicates")
      check.eq(e:hasTag("hero"), true, "hasTag")
      e:untag("hero")
      e:untag("never")
      check.eq(e:hasTag("hero"), false, "untag")
      check.fails("want a tag", e.tag, e, "")
      check.fails("want a tag", e.tag, e, 5)

      check.eq(names(ctx.query({ tag = "enemy" })), "orc orc troll", "by tag, by entity index")
      check.eq(names(ctx.query({ tag = "enemy", near = vec3(0, 0, 0) })), "orc orc troll", "ties by index")
      check.eq(names(ctx.query({ near = { 29, 0, 0 }, limit = 2 })), "troll orc", "nearest first")
      check.eq(names(ctx.query({ near = e, radius = 1.5 })), "subject orc orc", "near an entity: itself at 0")
      check.eq(names(ctx.query({ script = "helper/probe" })), "orc troll", "by script")
      check.eq(names(ctx.query({ script = "helper/probe", tag = "green" })), "orc", "filters combine")
      check.eq(names(ctx.query({ name = "orc" })), "orc orc", "by name")
      check.eq(names(ctx.findAll("orc")), "orc orc", "findAll")
      check.eq(#ctx.findAll("nobody"), 0, "findAll of nobody")
      check.fails("unknown query field \"nera\"", ctx.query, { nera = e })
      check.fails("radius needs near", ctx.query, { radius = 3 })
      check.fails("radius must be a positive number", ctx.query, { near = e, radius = -1 })
      check.fails("limit must be a whole number", ctx.query, { limit = 1.5 })
      check.fails("near must be an entity or a position", ctx.query, { near = "here" })

      local p = ctx.spawn({ name = "orc", tags = { "enemy" } })
      check.eq(#ctx.query({ name = "orc" }), 2, "a pending entity is not found")
      ctx.findAll("orc")[1]:kill()
      check.eq(names(ctx.findAll("orc")), "orc", "nor a dying one")
      ctx.find("troll"):setPosition(0, 0, 0)
      check.eq(names(ctx.query({ near = e, radius = 0.5 })), "subject", "positions are committed ones")
    elseif ctx.frame == 2 then
      check.eq(names(ctx.query({ near = e, radius = 0.5 })), "subject troll orc", "after the flush (the new orc spawned at the origin; ties by index)")
      check.eq(names(ctx.findAll("orc")), "orc orc", "the spawned orc is active now")
      done()
    end
  end,
}
