-- Proves # of tables with holes in the shapes scripts build them, as Lua
-- 5.1 answers: constructors (their array part holds all their positional
-- values, nil ones included), tables built by writes (their array part is
-- the largest power of two more than half of whose slots are used), keyed
-- constructors, removals, and appends at #t + 1 after them. The last check
-- is a known difference: an array emptied past half keeps, in Lua 5.1, the
-- array part it grew to.
local function pack(...) return {...} end
local function three() return 1, nil, 3 end
local function trailing() return 1, nil end
local t
print("constructors", #{1, nil, 3}, #{nil, nil, 3}, #{nil, 2}, #{1, 2, nil, 4}, #{1, nil, nil, nil, 5}, #{nil})
print("varargs", #pack(1, nil, 3), #{three()}, #pack(nil, nil, 3), #{three(), 4}, #{trailing()}, #pack())
print("mixed constructor", #{x = 1, y = 2, 1, nil, 3}, #{1, nil, 3, n = 3})
t = {} t[1] = 1 t[3] = 3 print("written 1 and 3", #t)
t = {} t[1] = 1 t[2] = 2 t[4] = 4 print("written 1 2 4", #t)
t = {} t[2] = 2 print("written 2", #t)
t = {} t[4] = 4 print("written 4", #t)
t = {} t[1] = 1 t[2] = 2 t[3] = 3 t[5] = 5 print("written 1 2 3 5", #t)
t = {} t[1] = 1 t[2] = nil t[3] = 3 print("nil written between", #t)
print("keyed constructors", #{[1] = 1, [3] = 3}, #{[1] = 1, [2] = 2, [4] = 4}, #{[2] = 2}, #{[1] = 1, [2] = 2, [3] = 3, [5] = 5})
t = {1, 2, 3, 4, 5} t[3] = nil print("constructor, middle removed", #t)
t = {1, 2, 3, 4, 5} t[5] = nil print("constructor, last removed", #t) t[4] = nil print("and the one before", #t)
t = {1, 2, 3, 4} t[2] = nil t[#t + 1] = 5 print("append after a removal", #t, t[5])
t = {} for i = 1, 10 do t[i] = i end t[5] = nil print("loop, one removed", #t)
t = {} for i = 1, 10 do t[i] = i end t[10] = nil t[9] = nil print("loop, last two removed", #t)
t = {} for i = 1, 10 do t[i] = i end t[1] = nil print("loop, first removed", #t)
t = {} for i = 1, 8 do t[i] = i end for i = 8, 4, -1 do t[i] = nil end print("loop, emptied from the end", #t)
t = {1, 2, 3} t[5] = 5 print("constructor and a gap", #t) t[4] = 4 print("gap filled", #t)
t = {1, 2, 3, nil, 5} print("constructor with a hole", #t) t[6] = 6 print("and a key past it", #t)
t = {} for i = 1, 100 do t[i] = i end for i = 1, 99 do t[i] = nil end print("all but the last removed", #t)
t = {n = 1} t[1] = 1 t[3] = 3 print("keyed, then written", #t)
t = {1, 2} t[4] = 4 print("two and a far one", #t)
t = {1, 2, 3, 4} t[6] = 6 print("four and a gap", #t)
t = {} for i = 1, 5 do t[i] = i end t[7] = 7 print("five and a gap", #t)
t = {} for i = 1, 4 do t[i] = i end t[6] = 6 print("four written and a gap", #t)
t = {} for i = 1, 10 do t[i] = i end for i = 1, 10, 2 do t[i] = nil end print("thinned past half", #t)
