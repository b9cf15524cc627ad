-- the chunk raises an error
error("no config found")
