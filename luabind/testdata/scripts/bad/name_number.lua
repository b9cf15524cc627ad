return { name = 5 }
