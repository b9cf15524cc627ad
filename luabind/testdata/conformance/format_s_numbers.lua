-- Proves string.format's %s of numbers (their %.14g text), with widths
-- and precisions, and %d of whole floats, as Lua 5.1 writes them.
print("s numbers", string.format("[%s] [%s] [%s]", 1 / 3, 2 ^ 53, -0.25))
print("s width", string.format("[%8s] [%-8s] [%.3s]", 12.5, 7, 1 / 3))
print("d floats", string.format("%d %d %d", 2 ^ 31, -2 ^ 31, 1e15))
print("x floats", string.format("%x %X", 2 ^ 32, 255.9))
print("g precision", string.format("%.3g %.10g %g", 1 / 3, 2 / 3, 1e-5))
