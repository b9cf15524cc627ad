-- a chunk that runs forever
while true do end
