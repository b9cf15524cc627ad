package luabind

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/luahost/luahost/runtime"
	"github.com/luahost/luahost/snapshot"
)

// zonedWorld is a world under zoned rules with seed 7 and no budget.
func zonedWorld(t *testing.T) *world {
	w := newWorld(t, withSeed(7), withBudget(-1, 0))
	w.h.UseZonedRules()
	return w
}

// dice spawns a zone/dice entity of identity id tagged tag.
func (w *world) dice(id uint64, tag string, props map[string]any) runtime.Handle {
	w.t.Helper()
	e := w.rt.Spawn()
	require.NoError(w.t, w.h.SetIdentity(e, id))
	p := map[string]any{"tag": tag}
	for k, v := range props {
		p[k] = v
	}
	w.attach(e, "zone/dice", p)
	require.NoError(w.t, w.rt.Activate(e))
	return e
}

// linesOf returns the lines of lines that start with tag and a tab.
func linesOf(lines []string, tag string) []string {
	var out []string
	for _, l := range lines {
		if strings.HasPrefix(l, tag+"\t") {
			out = append(out, l)
		}
	}
	return out
}

// TestZonedRandom: under zoned rules math.random draws from the entity's
// own stream, which depends on the seed and the entity's identity only,
// and goes on where it stopped across a handoff and a snapshot.
func TestZonedRandom(t *testing.T) {
	const frames = 6
	straight := func(t *testing.T, props map[string]any) []string {
		w := zonedWorld(t)
		w.dice(ChildIdentity(0, 1), "a", props)
		w.step(frames, 0.1)
		w.requireNoErrors()
		return w.lines()
	}
	cases := []struct {
		name  string
		props map[string]any
		run   func(t *testing.T, props map[string]any) []string
	}{
		{"other entities and handles do not matter", nil, func(t *testing.T, props map[string]any) []string {
			w := zonedWorld(t)
			w.spawn("filler")
			w.dice(ChildIdentity(0, 9), "b", nil)
			w.dice(ChildIdentity(0, 1), "a", props)
			w.step(frames, 0.1)
			w.requireNoErrors()
			return append(linesOf(w.lines(), "a"), linesOf(w.lines(), "a.child")...)
		}},
		{"a handoff continues the stream", nil, func(t *testing.T, props map[string]any) []string {
			from, to := zonedWorld(t), zonedWorld(t)
			to.spawn("filler")
			e := from.dice(ChildIdentity(0, 1), "a", props)
			from.step(3, 0.1)
			child := from.rt.QueryAppend(nil, runtime.Query{Script: "zone/dice"})
			require.Len(t, child, 2)
			batch, err := from.h.ExportAll(child)
			require.NoError(t, err)
			_, err = to.h.ImportAll(batch)
			require.NoError(t, err)
			assert.False(t, from.rt.Alive(e))
			to.step(frames-3, 0.1)
			from.requireNoErrors()
			to.requireNoErrors()
			return append(from.lines(), to.lines()...)
		}},
		{"a snapshot continues the stream", map[string]any{"reseed": 5}, func(t *testing.T, props map[string]any) []string {
			from := zonedWorld(t)
			from.dice(ChildIdentity(0, 1), "a", props)
			from.step(3, 0.1)
			snap, err := from.h.Snapshot()
			require.NoError(t, err)
			data, err := snap.Marshal()
			require.NoError(t, err)
			assert.Contains(t, string(data), `"world":{"id":"`)
			parsed, err := snapshot.Parse(data)
			require.NoError(t, err)
			to := zonedWorld(t)
			require.NoError(t, to.h.Restore(parsed))
			to.step(frames-3, 0.1)
			from.requireNoErrors()
			to.requireNoErrors()
			return append(from.lines(), to.lines()...)
		}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			want := straight(t, c.props)
			got := c.run(t, c.props)
			assert.ElementsMatch(t, linesOf(want, "a"), linesOf(got, "a"))
			assert.ElementsMatch(t, linesOf(want, "a.child"), linesOf(got, "a.child"))
			assert.Len(t, linesOf(got, "a"), frames)
		})
	}
}

// TestZonedRandomStreams: two entities draw different numbers, a
// randomseed changes only its entity's stream, and a world under no
// zoned rules draws one sequence per script, as before.
func TestZonedRandomStreams(t *testing.T) {
	w := zonedWorld(t)
	w.dice(ChildIdentity(0, 1), "a", nil)
	w.dice(ChildIdentity(0, 2), "b", map[string]any{"reseed": 3})
	w.step(4, 0.1)
	w.requireNoErrors()
	a, b := linesOf(w.lines(), "a"), linesOf(w.lines(), "b")
	require.Len(t, a, 4)
	require.Len(t, b, 4)
	for i := range a {
		assert.NotEqual(t, strings.TrimPrefix(a[i], "a"), strings.TrimPrefix(b[i], "b"), "frame %d", i+1)
	}
	alone := zonedWorld(t)
	alone.dice(ChildIdentity(0, 1), "a", nil)
	alone.step(4, 0.1)
	assert.Equal(t, a, linesOf(alone.lines(), "a"), "b's randomseed leaves a's stream alone")

	child := linesOf(w.lines(), "a.child")
	require.Len(t, child, 2, "the child spawned on a's second frame draws from the third on")
	got, ok := w.h.ByIdentity(ChildIdentity(ChildIdentity(0, 1), 1))
	require.True(t, ok, "a's first child has the identity derived from a's")
	assert.True(t, w.rt.Alive(got))

	plain := newWorld(t, withSeed(7), withBudget(-1, 0))
	e := plain.rt.Spawn()
	plain.attach(e, "zone/dice", map[string]any{"tag": "a"})
	require.NoError(t, plain.rt.Activate(e))
	plain.step(4, 0.1)
	assert.Zero(t, plain.h.Identity(e), "no identities without zoned rules")
	assert.NotEqual(t, a, linesOf(plain.lines(), "a"), "without zoned rules the script's stream draws")
}

// TestZonedSnapshotCompatible: a snapshot saved without zoned rules loads
// into a host under them (its entities get identities), and a bad world
// part is refused.
func TestZonedSnapshotCompatible(t *testing.T) {
	plain := newWorld(t, withSeed(7), withBudget(-1, 0))
	e := plain.rt.Spawn()
	plain.attach(e, "zone/dice", map[string]any{"tag": "a"})
	require.NoError(t, plain.rt.Activate(e))
	plain.step(1, 0.1)
	snap, err := plain.h.Snapshot()
	require.NoError(t, err)
	data, err := snap.Marshal()
	require.NoError(t, err)
	require.NotContains(t, string(data), `"world"`)

	cases := []struct {
		name, from, to, want string
	}{
		{"old document", "", "", ""},
		{"identity 0", `"instances":[`, `"world":{"id":"0","random":""},"instances":[`, "world.id must be above 0"},
		{"bad stream", `"instances":[`, `"world":{"id":"5","random":"x"},"instances":[`, "world.random"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			doc := strings.Replace(string(data), c.from, c.to, 1)
			parsed, err := snapshot.Parse([]byte(doc))
			require.NoError(t, err)
			w := zonedWorld(t)
			if !restored(t, w, parsed, c.want) {
				return
			}
			all := w.rt.AppendEntities(nil)
			require.Len(t, all, 1)
			assert.NotZero(t, w.h.Identity(all[0]))
			w.step(1, 0.1)
			w.requireNoErrors()
			assert.Len(t, linesOf(w.lines(), "a"), 1)
		})
	}
}

// TestZonedRules: under zoned rules a script reads other entities as
// they were at the start of the frame, and its effects on them (an
// event, a kill, a blackboard write) arrive at the start of the next
// frame, whichever entity updates first; every printed line goes to
// OnPrint with the identity of its entity.
func TestZonedRules(t *testing.T) {
	want := []string{
		"actor frame\t1\thot\tfalse\tk\tnil\tat\t0\t0\t0",
		"poked\t1\tin\t2",
		"actor kills\ttrue",
		"actor frame\t2\thot\ttrue\tk\t1\tat\t5\t0\t0",
		"actor frame\t3\thot\ttrue\tk\t1\tat\t5\t0\t0",
		"target\tdestroyed in\t3",
		"actor\tdestroyed in\t3",
	}
	for _, actorFirst := range []bool{true, false} {
		t.Run(fmt.Sprintf("actor first %v", actorFirst), func(t *testing.T) {
			w := zonedWorld(t)
			var lines []string
			from := map[string]uint64{}
			w.h.OnPrint(func(id uint64, line string) {
				lines = append(lines, line)
				from[strings.Fields(line)[0]] = id
			})
			spawn := func(name, role string, n uint64) {
				e := w.rt.Spawn()
				require.NoError(t, w.rt.SetName(e, name))
				require.NoError(t, w.h.SetIdentity(e, ChildIdentity(0, n)))
				w.attach(e, "zone/rules", map[string]any{"role": role})
				require.NoError(t, w.rt.Activate(e))
			}
			if actorFirst {
				spawn("a", "actor", 1)
				spawn("b", "target", 2)
			} else {
				spawn("b", "target", 2)
				spawn("a", "actor", 1)
			}
			w.step(3, 0.1)
			w.close()
			w.requireNoErrors()
			// The two entities' lines of one frame come in schedule
			// order: compare each entity's.
			for _, who := range []string{"actor", "poked", "target"} {
				assert.Equal(t, linesWith(want, who), linesWith(lines, who), who)
			}
			assert.Equal(t, ChildIdentity(0, 1), from["actor"])
			assert.Equal(t, ChildIdentity(0, 2), from["poked"])
			assert.Empty(t, w.out.String(), "nothing is written to Stdout")
		})
	}
}

// linesWith returns the lines of lines whose first word is word.
func linesWith(lines []string, word string) []string {
	var out []string
	for _, l := range lines {
		if strings.Fields(l)[0] == word {
			out = append(out, l)
		}
	}
	return out
}

// TestZonedTimerIDs: under zoned rules timer ids count per entity, so the
// id a script gets does not depend on the other entities of its host;
// without them they count per host.
func TestZonedTimerIDs(t *testing.T) {
	cases := []struct {
		name  string
		zoned bool
		want  []string
	}{
		{"zoned", true, []string{"made\t1", "made\t1", "rang\t1", "rang\t1"}},
		{"one world", false, []string{"made\t1", "made\t2", "rang\t1", "rang\t2"}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			w := newWorld(t, withBudget(-1, 0))
			if c.zoned {
				w.h.UseZonedRules()
			}
			w.spawn("a", "zone/timer")
			w.spawn("b", "zone/timer")
			w.step(3, 0.1)
			w.requireNoErrors()
			assert.Equal(t, c.want, w.lines())
		})
	}
}

// TestZonedEffects: under zoned rules tags, moves, attaches, detaches
// and ctx.emit made in one frame apply at the start of the next, and
// reads of the entity see them from the frame after (the state at the
// start of a frame is before its deliveries); detach counts the
// instances the entity had at the start of the frame, and revive works
// on the callback's own entity only.
func TestZonedEffects(t *testing.T) {
	w := zonedWorld(t)
	for i, who := range []string{"a", "b"} {
		e := w.rt.Spawn()
		require.NoError(t, w.rt.SetName(e, who))
		require.NoError(t, w.h.SetIdentity(e, ChildIdentity(0, uint64(i+1))))
		role := "target"
		if who == "a" {
			role = "actor"
		}
		w.attach(e, "zone/effects", map[string]any{"role": role})
		require.NoError(t, w.rt.Activate(e))
	}
	w.step(5, 0.1)
	w.requireNoErrors()
	assert.Equal(t, []string{
		"revive\tfalse\ttestdata/scripts/zone/effects.lua:13: revive entity(#" + fmt.Sprintf("%x", ChildIdentity(0, 2)) + "): works only on the callback's own entity in a zoned world",
		"frame\t1\tmarked\tfalse\tx\t0\ttags\t0",
		"emit\ttrue",
		"frame\t2\tmarked\tfalse\tx\t0\ttags\t0",
		"actor\theard\thi\tin\t3",
		"target\theard\thi\tin\t3",
		"detach\t1",
		"frame\t3\tmarked\ttrue\tx\t3\ttags\t1",
		"made\t1",
		"frame\t4\tmarked\ttrue\tx\t3\ttags\t1",
		"frame\t5\tmarked\tfalse\tx\t3\ttags\t0",
	}, w.lines())
}

// TestWorldHandlesInSnapshots: a world handle in a self is saved as it
// is and restored as it is into a host under zoned rules; a host under
// no zoned rules refuses it as a handle out of its range.
func TestWorldHandlesInSnapshots(t *testing.T) {
	from := zonedWorld(t)
	from.dice(ChildIdentity(0, 1), "a", map[string]any{"other": WorldHandle(ChildIdentity(0, 2))})
	snap, err := from.h.Snapshot()
	require.NoError(t, err)
	data, err := snap.Marshal()
	require.NoError(t, err)
	cases := []struct {
		name  string
		zoned bool
		want  string
	}{
		{"zoned", true, ""},
		{"one world", false, "out of range"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			parsed, err := snapshot.Parse(data)
			require.NoError(t, err)
			w := newWorld(t, withSeed(7), withBudget(-1, 0))
			if c.zoned {
				w.h.UseZonedRules()
			}
			if !restored(t, w, parsed, c.want) {
				return
			}
			insts := slices.Collect(w.h.Instances("zone/dice"))
			require.Len(t, insts, 1)
			self, err := w.h.Self(insts[0])
			require.NoError(t, err)
			assert.Contains(t, runtime.FormatPlain(self), WorldHandle(ChildIdentity(0, 2)).String())
		})
	}
}

// restored restores doc into w and reports whether it was taken: with
// want given, it checks that the restore was refused as a bad snapshot
// saying want.
func restored(t *testing.T, w *world, doc *snapshot.World, want string) bool {
	t.Helper()
	err := w.h.Restore(doc)
	if want != "" {
		require.Error(t, err)
		assert.ErrorIs(t, err, runtime.ErrBadSnapshot)
		assert.Contains(t, err.Error(), want)
		return false
	}
	require.NoError(t, err)
	return true
}
