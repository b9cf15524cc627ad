-- messages/syntax/param_list.lua: a parameter list that ends with a comma.
-- want: 3: <name> or '...' expected near ')'
local function move(self, dx,)
end
