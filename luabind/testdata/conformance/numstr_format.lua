-- Proves string.format converts numeric strings for %d, %x, %c, %f, %g,
-- %e and width/precision forms, and floats for %d as C's (int) cast.
print("d", string.format("%d|%3d|%-3d|%03d", "5", "5", "5", "5"))
print("x", string.format("%x|%X|%#x", "255", "255", "255"))
print("float to d", string.format("%d %d", 3.9, -3.9))
print("f", string.format("%.1f|%8.3f|%-8.1f|", "2.25", "3.14159", "1"))
print("g e", string.format("%g|%G|%.2e", "0.0001", "1e-10", "123456"))
print("hex string", string.format("%d", "0x10"))
print("s of number", string.format("%s|%5s|%.2s", 12, 3.5, 1234))
print("q of number", string.format("%q", 1 / 3))
