return { priority = 1.5 }
