return { properties = "fast" }
