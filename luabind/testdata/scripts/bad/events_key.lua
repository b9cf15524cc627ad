return { events = { [1] = function() end } }
