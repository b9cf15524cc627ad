-- A module may return anything; only scripts must return a table.
return function(who) return "hello, " .. who end
