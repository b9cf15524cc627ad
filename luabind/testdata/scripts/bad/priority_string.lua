return { priority = "high" }
