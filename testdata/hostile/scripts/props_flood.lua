-- Properties of 100,000 values on an entity that lists the script 400
-- times: every attach copies them into a new self, and the setup held
-- gigabytes before any frame checked the memory ceiling. The copies are
-- counted against it, and the scene is refused.
local data = {}
for i = 1, 100000 do
  data[i] = i + 0.5
end
return {
  properties = { data = data },
  onUpdate = function(self, ctx) end,
}
