return { events = { ping = 5 } }
