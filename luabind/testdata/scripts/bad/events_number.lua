return { events = 5 }
