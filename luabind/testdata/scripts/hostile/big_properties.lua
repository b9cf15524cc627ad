-- Properties of 100,000 values: every attach copies them into a new
-- self, so a few thousand instances would hold gigabytes. The copies are
-- counted against the host's memory ceiling.
local data = {}
for i = 1, 100000 do
  data[i] = i + 0.5
end
return {
  properties = { data = data },
  onUpdate = function(self, ctx) end,
}
