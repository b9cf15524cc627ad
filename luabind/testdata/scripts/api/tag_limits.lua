-- Scripts give an entity at most 64 tags of at most 256 bytes each, and
-- a spawned entity a name of at most 256 bytes: the runtime keeps them
-- where no memory limit sees, and a script tagging itself with a fresh
-- 16 MiB string every frame grew the process by gigabytes.
local check = require("lib.check")

return {
  onCreate = function(self, ctx)
    local e = ctx.entity
    e:tag(("t"):rep(256))
    check.truthy(e:hasTag(("t"):rep(256)), "a 256-byte tag")
    check.fails("tag longer than 256 bytes", e.tag, e, ("t"):rep(257))
    for i = 2, 64 do e:tag("t" .. i) end
    check.eq(#e:tags(), 64, "64 tags")
    check.fails("the entity has 64 tags, the most scripts may give one", e.tag, e, "one more")
    e:tag("t2")
    check.eq(#e:tags(), 64, "a tag it has already is no new one")
    e:untag("t2")
    e:tag("replaced")
    check.truthy(e:hasTag("replaced"), "room again after an untag")

    local many = {}
    for i = 1, 65 do many[i] = "m" .. i end
    check.fails("spec.tags has more than 64 tags", ctx.spawn, { tags = many })
    check.fails("spec.tags[1] is longer than 256 bytes", ctx.spawn, { tags = { ("t"):rep(257) } })
    check.fails("spec.name is longer than 256 bytes", ctx.spawn, { name = ("n"):rep(257) })
    local named = ctx.spawn({ name = ("n"):rep(256), tags = { "a", "b" } })
    check.eq(named:name(), ("n"):rep(256), "a 256-byte name")
    done()
  end,
}
