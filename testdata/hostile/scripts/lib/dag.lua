-- dag(n): a table of n levels whose two fields share one subtable, so
-- n + 1 tables but 2^n paths to its leaf.
return function(n)
  local t = {}
  for i = 1, n do t = { a = t, b = t } end
  return t
end
