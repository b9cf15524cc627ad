return { properties = { speed = 1, step = function() end } }
