-- Lies beside the script folder, not in it: scripts/lib/outside.lua and
-- scripts/linked_outside.lua link here, and neither require nor a scene
-- may read it.
return { secret = true }
