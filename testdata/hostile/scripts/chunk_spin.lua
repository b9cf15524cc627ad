-- A script whose top-level code never ends cannot load: the scene does not
-- start, with the script's file:line, and nothing runs.
while true do end

return {}
