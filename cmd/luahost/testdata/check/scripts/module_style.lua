-- The script table built as a local, with function M.name definitions.
local M = { priority = 1 }

function M.onUpdate(self, ctx, dt) end

function M:onDestory(ctx) end

return M
