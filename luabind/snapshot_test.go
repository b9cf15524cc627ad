package luabind

import (
	"bytes"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/luahost/luahost/runtime"
	"github.com/luahost/luahost/snapshot"
)

// lifeWorld is a world with spawns, kills, timers, random numbers,
// queries, entity values in self, tags, a shared name, a free list and
// the blackboard, run for frames frames.
func lifeWorld(t *testing.T, frames int) *world {
	// Budgets off: a callback stopped by a loaded machine would be a
	// fault of that world alone.
	w := newWorld(t, withSeed(7), withBudget(-1, 0))
	require.NoError(t, w.rt.Blackboard().Set("level", map[string]any{"name": "caves", "depth": 3}))
	w.spawn("god", "snapshot/life")
	hero := w.spawn("hero", "snapshot/carrier")
	require.NoError(t, w.rt.Tag(hero, "hero"))
	w.spawn("twin")
	w.spawn("twin")
	gone := w.spawn("gone")
	_, err := w.rt.Kill(gone)
	require.NoError(t, err)
	for range frames {
		require.NoError(t, w.rt.Step(1.0/60))
	}
	return w
}

// save returns the world's snapshot, marshalled.
func (w *world) save() []byte {
	w.t.Helper()
	snap, err := w.h.Snapshot()
	require.NoError(w.t, err)
	b, err := snap.Marshal()
	require.NoError(w.t, err)
	return b
}

// continued restores saved, w's snapshot, in a fresh world r, checks that
// it saves the same bytes, steps both frames times and returns what w
// printed meanwhile (from mark on) and r.
func (w *world) continued(saved []byte, mark, frames int) (cont string, r *world) {
	w.t.Helper()
	snap, err := snapshot.Parse(saved)
	require.NoError(w.t, err)
	r = newWorld(w.t, withBudget(-1, 0))
	require.NoError(w.t, r.h.Restore(snap))
	assert.Equal(w.t, string(saved), string(r.save()), "a restored world saves the same bytes")
	for range frames {
		require.NoError(w.t, w.rt.Step(1.0/60))
		require.NoError(w.t, r.rt.Step(1.0/60))
	}
	w.h.Flush()
	r.h.Flush()
	return w.out.String()[mark:], r
}

// TestSnapshotContinues: a world restored from its snapshot in a fresh
// runtime and host is indistinguishable from the world that never
// stopped: the same snapshot at once, the same output and snapshot after
// more frames, the same shutdown.
func TestSnapshotContinues(t *testing.T) {
	w := lifeWorld(t, 40)
	w.h.Flush()
	mark := w.out.Len()
	saved := w.save()

	snap, err := snapshot.Parse(saved)
	require.NoError(t, err)
	r := newWorld(t, withSeed(99), withBudget(-1, 0))
	require.NoError(t, r.h.Restore(snap))
	assert.Equal(t, string(saved), string(r.save()), "a restored world saves the same bytes")
	assert.Equal(t, int64(7), r.rt.Seed(), "the seed comes from the snapshot")

	for range 60 {
		require.NoError(t, w.rt.Step(1.0/60))
		require.NoError(t, r.rt.Step(1.0/60))
	}
	assert.Equal(t, string(w.save()), string(r.save()))
	require.NoError(t, w.h.Close())
	require.NoError(t, r.h.Close())
	cont := w.out.String()[mark:]
	assert.Contains(t, cont, "kill", "the world spawns and kills after the save")
	assert.Contains(t, cont, "bye")
	assert.Equal(t, cont, r.out.String())
	assert.Empty(t, w.errs)
	assert.Empty(t, r.errs)
}

// TestSnapshotDeterministic: the same scene and seed give the same bytes.
func TestSnapshotDeterministic(t *testing.T) {
	a, b := lifeWorld(t, 50), lifeWorld(t, 50)
	assert.Equal(t, string(a.save()), string(b.save()))
	a.h.Flush()
	b.h.Flush()
	assert.Equal(t, a.out.String(), b.out.String())
}

// TestRestoreCallbacks: restore runs onRestore, never onCreate; faulted
// instances get no callback and stay faulted.
func TestRestoreCallbacks(t *testing.T) {
	w := newWorld(t)
	src := `return {
  onCreate = function(self, ctx) print("create") self.n = 1 end,
  onRestore = function(self, ctx) print("restore", self.n, ctx.frame, ctx.entity:name()) end,
  onUpdate = function(self, ctx) self.n = self.n + 1 if self.fail then error("boom") end end,
}`
	require.NoError(t, w.h.Reload("snapshot/restoring", []byte(src)))
	w.spawn("ok", "snapshot/restoring")
	w.spawn("bad", "snapshot/restoring")
	require.NoError(t, w.rt.Step(0.1))
	snap, err := w.h.Snapshot()
	require.NoError(t, err)
	// The script is not on disk: the restoring host gets it the same way.
	r := newWorld(t)
	require.NoError(t, r.h.Reload("snapshot/restoring", []byte(src)))
	require.NoError(t, r.h.Restore(snap))
	r.h.Flush()
	assert.Equal(t, "restore\t2\t1\tok\nrestore\t2\t1\tbad\n", r.out.String())
}

// TestRestoreBadSnapshots: a bad snapshot is a precise error and leaves
// the host as it was: fresh, no script loaded.
func TestRestoreBadSnapshots(t *testing.T) {
	saved := string(lifeWorld(t, 20).save())
	cases := []struct {
		name, from, to, want string
	}{
		{"truncated", "", "", "unexpected end of the snapshot"},
		{"newer format", `"luahost-snapshot/1"`, `"luahost-snapshot/2"`, `format "luahost-snapshot/2" is not one this luahost reads`},
		{"no format", `"format":"luahost-snapshot/1",`, ``, "not a luahost snapshot"},
		{"wrong type", `"frame":20`, `"frame":"20"`, "line 1, col"},
		{"slots past 32 bits", `"slots":13`, `"slots":4294967296`, "slots: want an integer from 0 to 4294967295, not a JSON number"},
		{"negative frame", `"frame":20`, `"frame":-1`, "frame: want an integer from 0 to 18446744073709551615, not a JSON number"},
		{"script not a string", `"script":"snapshot/critter"`, `"script":5`, "instances.script: want a string, not a JSON number"},
		{"field given twice", `"frame":20`, `"frame":20,"frame":21`, `line 1, col 43: the field "frame" is given twice`},
		{"entities given twice", `"entities":[`, `"entities":[],"entities":[`, `the field "entities" is given twice`},
		{"time not a number", `"time":`, `"time":{"$number":"nan"},"x":`, "time: want a number, not a JSON object"},
		{"unknown field", `"frame":20`, `"frame":20,"frames":3`, `unknown field "frames"`},
		{"unknown script", `"script":"snapshot/critter"`, `"script":"snapshot/nope"`, `unknown script "snapshot/nope"`},
		{"handle out of range", `"self":{"hp":`, `"self":{"x":{"$entity":"999:1"},"hp":`, "entity(999:1) is out of range"},
		{"future generation", `"self":{"hp":`, `"self":{"x":{"$entity":"1:7"},"hp":`, "slot 1 has not reached that generation"},
		{"unknown tag", `"self":{"hp":`, `"self":{"x":{"$vector":[1,2,3]},"hp":`, `unknown tag "$vector"`},
		{"slot twice", `"free":["`, `"free":["1:5","`, "slots is 13, but the snapshot lists"},
		{"huge slots", `"slots":13`, `"slots":4000000000`, "slots is 4000000000"},
		{"bad random", `"random":"`, `"random":"x`, "random"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			data := saved[:len(saved)/2]
			if c.from != "" || c.to != "" {
				require.Contains(t, saved, c.from)
				data = strings.Replace(saved, c.from, c.to, 1)
			}
			w := newWorld(t)
			snap, err := snapshot.Parse([]byte(data))
			if err == nil {
				err = w.h.Restore(snap)
			}
			require.Error(t, err)
			assert.ErrorIs(t, err, runtime.ErrBadSnapshot)
			assert.Contains(t, err.Error(), c.want)
			assert.True(t, w.rt.Fresh(), "nothing was restored")
			assert.Empty(t, w.h.Scripts(), "no script stays loaded")
		})
	}
}

// TestSnapshotRefusals: a snapshot cannot be taken during a frame or of a
// world with a Go-native script; a restore needs a fresh runtime.
func TestSnapshotRefusals(t *testing.T) {
	w := newWorld(t)
	w.spawn("a", "snapshot/carrier")
	var during error
	w.rt.Events().Observe("go", func(*runtime.Event) any { _, during = w.h.Snapshot(); return nil }, runtime.ObserveOptions{})
	_, err := w.rt.Events().Notify("go", nil, -1)
	require.NoError(t, err)
	require.Error(t, during)
	assert.Contains(t, during.Error(), "dispatch")

	var inside []error
	require.NoError(t, w.h.Register("saveNow", func(inst *runtime.Instance, _ []any) (any, error) {
		_, err := w.h.Snapshot()
		inside = append(inside, err)
		_, err = w.h.Export(inst.Entity())
		inside = append(inside, err)
		return nil, nil
	}))
	require.NoError(t, w.h.Reload("snapshot/inside", []byte(`return { onCreate = function() saveNow() end }`)))
	w.spawn("b", "snapshot/inside")
	require.Len(t, inside, 2)
	for _, err := range inside {
		require.ErrorContains(t, err, "not allowed inside a callback")
	}

	snap, err := w.h.Snapshot()
	require.NoError(t, err)
	err = w.h.Restore(snap)
	require.ErrorContains(t, err, "not fresh")

	g := newWorld(t)
	_, err = g.rt.Attach(g.rt.Spawn(), &goScript{name: "native", trace: new([]string)}, "x")
	require.NoError(t, err)
	_, err = g.h.Snapshot()
	require.ErrorIs(t, err, runtime.ErrNotSaveable)
}

// TestPlainJSONRoundTrip: every kind of plain data survives its JSON form,
// key order included.
func TestPlainJSONRoundTrip(t *testing.T) {
	w := newWorld(t)
	src := `return { onCreate = function(self, ctx)
  self.list = { 1, "two", true, { 3 } }
  self.mixed = { 1, 2, x = 3, [2.5] = "f", [true] = false }
  self.order = {}
  for _, k in ipairs({ "z", "a", "m", "$dollar" }) do self.order[k] = #k end
  self.bytes = "\255\0\n\"quote\""
  self.inf, self.ninf, self.nan = math.huge, -math.huge, 0/0
  self.v = vec3(1.5, -2, 1e300)
  self.key = { [ctx.entity] = "me" }
  self.empty = {}
  self.big = 2^53
end,
onRestore = function(self, ctx)
  local keys = {}
  for k, v in pairs(self.order) do keys[#keys + 1] = k .. "=" .. v end
  print(table.concat(keys, " "), #self.bytes, self.bytes:byte(1), self.inf, self.ninf, self.nan ~= self.nan,
    tostring(self.v), self.mixed[2.5], self.mixed[true], self.list[4][1], self.key[next(self.key)], string.format("%.0f", self.big))
end }`
	require.NoError(t, w.h.Reload("snapshot/kinds", []byte(src)))
	w.spawn("k", "snapshot/kinds")
	saved := w.save()
	snap, err := snapshot.Parse(saved)
	require.NoError(t, err)
	r := newWorld(t)
	require.NoError(t, r.h.Reload("snapshot/kinds", []byte(src)))
	require.NoError(t, r.h.Restore(snap))
	r.h.Flush()
	assert.Equal(t, "z=1 a=1 m=1 $dollar=7\t10\t255\tinf\t-inf\ttrue\tvec3(1.5, -2, 1e+300)\tf\tfalse\t3\tme\t9007199254740992\n", r.out.String())
	assert.True(t, bytes.Equal(saved, r.save()))
}

// TestSnapshotDocExample: the example of docs/snapshot.md is a snapshot
// this version reads, written exactly as Marshal writes it.
func TestSnapshotDocExample(t *testing.T) {
	doc, err := os.ReadFile("../docs/snapshot.md")
	require.NoError(t, err)
	_, rest, ok := strings.Cut(string(doc), "```json\n")
	require.True(t, ok)
	example, _, ok := strings.Cut(rest, "```\n")
	require.True(t, ok)
	snap, err := snapshot.Parse([]byte(example))
	require.NoError(t, err)
	again, err := snap.Marshal()
	require.NoError(t, err)
	assert.Equal(t, example, string(again))
}

// TestRestoreFlagsAndSpawns: faulted and create-failed instances stay so
// after a restore, a reload gives them their fresh chance as it would have
// (the failed onCreate runs again), attach props keep their tuning rule,
// and an entity a script spawned between frames becomes active before the
// next frame.
func TestRestoreFlagsAndSpawns(t *testing.T) {
	broken := `return {
  properties = { dmg = 1, range = 2 },
  onCreate = function(self, ctx)
    if ctx.entity:name() == "bad" then error("no") end
    if ctx.entity:name() == "maker" then ctx.spawn{ name = "spawned", scripts = { "snapshot/flags" } } end
  end,
  onUpdate = function(self, ctx) print(ctx.frame, ctx.entity:name(), self.dmg, self.range) end,
}`
	fixed := strings.Replace(strings.Replace(broken, `error("no")`, `print("created again")`, 1), "dmg = 1, range = 2", "dmg = 5, range = 7", 1)
	load := func(w *world) { require.NoError(t, w.h.Reload("snapshot/flags", []byte(broken))) }
	w := newWorld(t)
	load(w)
	w.spawn("bad", "snapshot/flags")
	good := w.rt.Spawn()
	require.NoError(t, w.rt.SetName(good, "good"))
	_, err := w.h.Attach(good, "snapshot/flags", map[string]any{"range": 3})
	require.NoError(t, err)
	require.NoError(t, w.rt.Activate(good))
	maker := w.rt.Spawn()
	require.NoError(t, w.rt.SetName(maker, "maker"))
	require.NoError(t, w.rt.Activate(maker))
	_, err = w.h.Attach(maker, "snapshot/flags", nil)
	require.NoError(t, err)
	spawned, ok := w.rt.Find("spawned")
	require.True(t, ok)
	st, _ := w.rt.State(spawned)
	require.Equal(t, runtime.StatePending, st)

	snap, err := w.h.Snapshot()
	require.NoError(t, err)
	require.Len(t, snap.Activate, 1)
	r := newWorld(t)
	load(r)
	require.NoError(t, r.h.Restore(snap))
	r.step(1, 0.1)
	require.NoError(t, r.h.Reload("snapshot/flags", []byte(fixed)))
	r.step(1, 0.1)
	assert.Equal(t, []string{
		"1\tgood\t1\t3", "1\tmaker\t1\t2", "1\tspawned\t1\t2",
		"created again",
		"2\tbad\t5\t7", "2\tgood\t5\t3", "2\tmaker\t5\t7", "2\tspawned\t5\t7",
	}, r.lines())
}

// FuzzParseSnapshot: any document is read or refused with ErrBadSnapshot,
// never a panic; what is read is written back to bytes that read back to
// themselves.
func FuzzParseSnapshot(f *testing.F) {
	doc, err := os.ReadFile("../docs/snapshot.md")
	require.NoError(f, err)
	_, rest, _ := strings.Cut(string(doc), "```json\n")
	example, _, _ := strings.Cut(rest, "```\n")
	f.Add(example)
	f.Add(`{"format":"luahost-snapshot/1","entities":[{"id":"1:1","instances":[{"seq":1,"script":"a","self":{"$table":[[1,2]]}}]}]}`)
	f.Add(`{"format":"luahost-snapshot/9"}`)
	f.Fuzz(func(t *testing.T, src string) {
		snap, err := snapshot.Parse([]byte(src))
		if err != nil {
			require.ErrorIs(t, err, runtime.ErrBadSnapshot)
			return
		}
		b, err := snap.Marshal()
		require.NoError(t, err)
		back, err := snapshot.Parse(b)
		require.NoError(t, err, "%s", b)
		again, err := back.Marshal()
		require.NoError(t, err)
		require.Equal(t, string(b), string(again))
	})
}

// TestSnapshotKeepsRemovedKeys: keys removed before the save and set
// again after the restore take the places in pairs order that they take
// in the world that never stopped (gopher-lua keeps a removed key's place
// in its key list). The snapshot saves them as null in their places.
func TestSnapshotKeepsRemovedKeys(t *testing.T) {
	w := newWorld(t, withBudget(-1, 0))
	w.spawn("holder", "snapshot/holes")
	for range 3 {
		require.NoError(t, w.rt.Step(1.0/60))
	}
	w.h.Flush()
	mark := w.out.Len()
	saved := w.save()
	assert.Contains(t, string(saved), `"b":null`, "a removed key of self is saved in its place")
	assert.Contains(t, string(saved), `["y",null]`, "a removed key of a table in self is saved in its place")

	cont, r := w.continued(saved, mark, 5)
	require.Contains(t, cont, "6\tc,b,a,f,t\t1=first,x=1,y=y again,z=3,1073741824=big again,true=yes again", "the keys set again are back in their places")
	assert.Equal(t, cont, r.out.String())
	assert.Equal(t, string(w.save()), string(r.save()))
	assert.Empty(t, w.errs)
	assert.Empty(t, r.errs)
}

// TestSnapshotBlackboardReadsBack: every blackboard a world can hold
// saves and reads back: a key holding tables nested as deep as a value
// may be (the blackboard's object is not counted as a level), and keys
// whose values together hold more values than one copy may.
func TestSnapshotBlackboardReadsBack(t *testing.T) {
	nested := func(n int) any {
		var v any = 1.0
		for range n {
			v = map[string]any{"a": v}
		}
		return v
	}
	many := make([]any, runtime.MaxPlainNodes/3)
	for i := range many {
		many[i] = true
	}
	tests := []struct {
		name string
		bb   map[string]any
	}{
		{"a key of the deepest value", map[string]any{"deep": nested(runtime.MaxPlainDepth)}},
		{"keys of more values together than one copy", map[string]any{"a": many, "b": many, "c": many, "d": many}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			w := newWorld(t)
			for k, v := range tc.bb {
				require.NoError(t, w.rt.Blackboard().Set(k, v))
			}
			saved := w.save()
			snap, err := snapshot.Parse(saved)
			require.NoError(t, err)
			back := newWorld(t)
			require.NoError(t, back.h.Restore(snap))
			assert.Equal(t, string(saved), string(back.save()))
		})
	}
}

// TestSnapshotSelfTooLarge: a world with one instance whose self is too
// large to save (past the bounds of one copy) is not saved, in part or in
// whole: the error names that instance — its entity's name and handle and
// its script — and says why, and the world runs on as it was.
func TestSnapshotSelfTooLarge(t *testing.T) {
	const src = `return {
  onCreate = function(self, ctx)
    local t = {}
    for i = 1, 1100000 do t[i] = i end
    self.hoard = t
  end,
}`
	// The hoard takes seconds to build under the race detector on a busy
	// machine: the wall-clock backstop, not this test's subject, is off.
	w := newWorld(t, withBudget(10*time.Second, 1<<30), func(_ *runtime.Options, o *Options) { o.WallClock = -1 })
	require.NoError(t, w.h.Reload("hoarder", []byte(src)))
	w.spawn("", "console/target")
	e := w.spawn("boss", "hoarder")
	w.spawn("", "console/target")
	w.requireNoErrors()
	start := time.Now()
	snap, err := w.h.Snapshot()
	assert.Less(t, time.Since(start), 5*time.Second)
	require.Error(t, err)
	assert.Nil(t, snap)
	assert.Contains(t, err.Error(), `"boss" `+e.String()+": its instance of hoarder")
	assert.Contains(t, err.Error(), "more than 1048576 values")
	assert.Contains(t, err.Error(), "nothing was saved")
	w.step(1, 0.1)
	w.requireNoErrors()
}

// TestRestoreTooLargeForTheCeiling: a snapshot whose data would pass the
// memory ceiling once restored is refused before anything is built, at
// once, and the host is left as it was.
func TestRestoreTooLargeForTheCeiling(t *testing.T) {
	snap, err := lifeWorld(t, 3).h.Snapshot()
	require.NoError(t, err)
	big := &runtime.Table{}
	for i := range 400_000 {
		big.Fields = append(big.Fields, runtime.Field{Key: float64(i + 1), Value: &runtime.Table{}})
	}
	self := snap.Entities[0].Instances[0].Self.Value.(*runtime.Table)
	self.Fields = append(self.Fields, runtime.Field{Key: "big", Value: big})

	ceiling := liveHeap() + 64<<20
	w := newWorld(t, withSeed(7), withBudget(-1, 0), func(_ *runtime.Options, o *Options) { o.MemoryCeiling = ceiling })
	start := time.Now()
	err = w.h.Restore(snap)
	require.ErrorIs(t, err, ErrSnapshotTooLarge)
	t.Logf("refused: %v", err)
	assert.Less(t, time.Since(start), 2*time.Second)
	assert.Empty(t, w.rt.Entities(), "nothing was built")
	assert.Empty(t, w.h.Scripts(), "no script was loaded")
}

// TestRestoreManyPending: a world saved in its setup, with 100,000
// entities waiting to become Active, restores in time linear in them (a
// check of the list of entities to activate was quadratic).
func TestRestoreManyPending(t *testing.T) {
	const src = `return { onCreate = function(self, ctx) for _ = 1, 100000 do ctx.spawn() end end }`
	w := newWorld(t, withBudget(-1, 0))
	require.NoError(t, w.h.Reload("spawner", []byte(src)))
	w.spawn("", "spawner")
	snap, err := w.h.Snapshot()
	require.NoError(t, err)
	require.Len(t, snap.Activate, 100000)

	fresh := newWorld(t, withBudget(-1, 0))
	require.NoError(t, fresh.h.Reload("spawner", []byte(src)))
	start := time.Now()
	require.NoError(t, fresh.h.Restore(snap))
	assert.Less(t, time.Since(start), 2*time.Second)
	assert.Len(t, fresh.rt.Entities(), len(w.rt.Entities()))
}

// TestSnapshotKeepsConstructorArrays: a table a constructor made with
// nils among its values answers # as before after a restore, and so does
// one built by writes with the same keys (Lua 5.1 answers the two
// differently): the snapshot saves a hole in each nil slot of a
// constructor's table, and the restore rebuilds it with its slots.
func TestSnapshotKeepsConstructorArrays(t *testing.T) {
	w := newWorld(t, withBudget(-1, 0))
	w.spawn("holder", "snapshot/lengths")
	for range 3 {
		require.NoError(t, w.rt.Step(1.0/60))
	}
	w.h.Flush()
	mark := w.out.Len()
	saved := w.save()
	assert.Contains(t, string(saved), `"args":{"$table":[[1,1],[2,null],[3,3]]}`, "a constructor's nil slot is saved as a hole")
	assert.Contains(t, string(saved), `"writes":{"$table":[[1,1],[3,3]]}`, "a table built by writes has no hole")

	cont, r := w.continued(saved, mark, 4)
	require.Equal(t, "4\t3\t3\t1\tnil\n5\t4\t3\t1\tappended\n6\t4\t3\t1\tappended\n7\t4\t3\t1\tappended\n", cont)
	assert.Equal(t, cont, r.out.String())
	assert.Empty(t, w.errs)
	assert.Empty(t, r.errs)
}
