package rewind

import (
	"crypto/sha256"
	"io"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/luahost/luahost/luabind"
	"github.com/luahost/luahost/runtime"
	"github.com/luahost/luahost/snapshot"
)

const scripts = "../scripts"

// demo builds the example world of scripts/demo.json.
func demo(t *testing.T) (*runtime.Runtime, *luabind.Host) {
	t.Helper()
	rt := runtime.New(runtime.Options{Seed: 7, OnError: func(error) {}})
	h, err := luabind.New(rt, luabind.Options{Dir: scripts, Stdout: io.Discard, Log: io.Discard})
	require.NoError(t, err)
	rt.Blackboard().Set("title", "the courtyard wakes up")
	add := func(name string, pos runtime.Vec3, tags []string, attach ...any) {
		e := rt.Spawn()
		require.NoError(t, rt.SetName(e, name))
		require.NoError(t, rt.Set(e, runtime.Position, pos))
		for _, tag := range tags {
			require.NoError(t, rt.Tag(e, tag))
		}
		for i := 0; i < len(attach); i += 2 {
			props, _ := attach[i+1].(map[string]any)
			_, err := h.Attach(e, attach[i].(string), props)
			require.NoError(t, err)
		}
		require.NoError(t, rt.Activate(e))
	}
	add("narrator", runtime.Vec3{}, nil, "narrator", nil)
	add("beacon", runtime.Vec3{Y: 3}, nil, "spinner", map[string]any{"speed": 180})
	add("guard", runtime.Vec3{}, nil, "patrol", map[string]any{"speed": 4, "waypoints": []any{[]any{0, 0, 0}, []any{4, 0, 0}, []any{4, 0, 4}, []any{0, 0, 4}}})
	add("spawner", runtime.Vec3{}, nil, "spawner", nil)
	add("turret", runtime.Vec3{X: -6}, nil, "damage", map[string]any{"amount": 12, "every": 0.8})
	add("chest", runtime.Vec3{X: 6}, []string{"target"}, "health", map[string]any{"hp": 30}, "chest", map[string]any{"gold": 25, "items": []any{"ruby", "old key"}})
	return rt, h
}

// build makes a fresh world of the example's scripts from a snapshot.
func build(t *testing.T) func(*snapshot.World) (*runtime.Runtime, *luabind.Host, error) {
	return func(snap *snapshot.World) (*runtime.Runtime, *luabind.Host, error) {
		rt := runtime.New(runtime.Options{OnError: func(error) {}})
		h, err := luabind.New(rt, luabind.Options{Dir: scripts, Stdout: io.Discard, Log: io.Discard})
		if err != nil {
			return nil, nil, err
		}
		t.Cleanup(func() { _ = h.Close() })
		return rt, h, h.Restore(snap)
	}
}

func marshal(t *testing.T, h *luabind.Host) string {
	t.Helper()
	snap, err := h.Snapshot()
	require.NoError(t, err)
	doc, err := snap.Marshal()
	require.NoError(t, err)
	return string(doc)
}

// dtOf is the dt of frame f in the replay tests: it varies.
func dtOf(f uint64) float64 {
	if f%7 == 0 {
		return 1.0 / 30
	}
	return 1.0 / 60
}

// TestReplayIdentical: 300 frames of the example world, with dts that
// vary; a rewind to every keyframe and to frames between them gives the
// very world the original run had there, byte for byte; and the world
// rewound to its first frame and run forward again has, at every
// keyframe, the original's snapshot hash.
func TestReplayIdentical(t *testing.T) {
	rt, h := demo(t)
	defer h.Close()
	hi := New(Options{Frames: 300, Every: 25})
	require.NoError(t, hi.Record(h, 0, 0))
	want := map[uint64]string{}
	for f := uint64(1); f <= 300; f++ {
		dt := dtOf(f)
		require.NoError(t, rt.Step(dt))
		require.NoError(t, hi.Record(h, f, dt))
		if f%25 == 0 || f%25 == 13 {
			want[f] = marshal(t, h)
		}
	}
	first, last := hi.Range()
	assert.Equal(t, uint64(0), first)
	assert.Equal(t, uint64(300), last)
	for f, doc := range want {
		rrt, rh, err := hi.Rewind(f, build(t))
		require.NoError(t, err, "frame %d", f)
		assert.Equal(t, f, rrt.Frame())
		assert.Equal(t, doc, marshal(t, rh), "frame %d replayed", f)
	}
	_, _, err := hi.Rewind(301, build(t))
	assert.ErrorIs(t, err, ErrNotHeld)

	rrt, rh, err := hi.Rewind(0, build(t))
	require.NoError(t, err)
	for f := uint64(1); f <= 300; f++ {
		require.NoError(t, rrt.Step(dtOf(f)))
		if f%25 == 0 {
			assert.Equal(t, sha256.Sum256([]byte(want[f])), sha256.Sum256([]byte(marshal(t, rh))), "keyframe %d of the replay", f)
		}
	}
}

// TestBounds: the history reaches Frames back and no further, keeps its
// bytes under MaxBytes, and refuses to go back past a reload.
func TestBounds(t *testing.T) {
	rt, h := demo(t)
	defer h.Close()
	hi := New(Options{Frames: 50, Every: 10})
	require.NoError(t, hi.Record(h, 0, 0))
	for f := uint64(1); f <= 200; f++ {
		require.NoError(t, rt.Step(1.0/60))
		require.NoError(t, hi.Record(h, f, 1.0/60))
	}
	first, last := hi.Range()
	assert.Equal(t, uint64(150), first)
	assert.Equal(t, uint64(200), last)
	assert.LessOrEqual(t, len(hi.keys), 7, "keyframes older than the window go")
	_, _, err := hi.Rewind(149, build(t))
	assert.ErrorIs(t, err, ErrNotHeld)

	hi.Reloaded(201)
	for f := uint64(201); f <= 210; f++ {
		require.NoError(t, rt.Step(1.0/60))
		require.NoError(t, hi.Record(h, f, 1.0/60))
	}
	first, _ = hi.Range()
	assert.Equal(t, uint64(201), first)
	assert.Equal(t, uint64(201), hi.keys[0].frame, "the keyframes before the reload went, and one was taken after it")
	_, _, err = hi.Rewind(170, build(t))
	assert.ErrorIs(t, err, ErrNotHeld)
	assert.ErrorContains(t, err, "reloaded before frame 201")
	_, _, err = hi.Rewind(205, build(t))
	assert.NoError(t, err)

	small := New(Options{Frames: 1000, Every: 10, MaxBytes: 1})
	require.NoError(t, small.Record(h, 210, 0))
	for f := uint64(211); f <= 240; f++ {
		require.NoError(t, rt.Step(1.0/60))
		require.NoError(t, small.Record(h, f, 1.0/60))
	}
	assert.Len(t, small.keys, 1, "the bytes bound keeps only the newest keyframe")
	assert.ErrorContains(t, small.Record(h, 242, 0), "recorded after 240")
}

// TestTruncate: a world rewound and run on forgets the frames after the
// rewind.
func TestTruncate(t *testing.T) {
	rt, h := demo(t)
	defer h.Close()
	hi := New(Options{Every: 10})
	require.NoError(t, hi.Record(h, 0, 0))
	for f := uint64(1); f <= 40; f++ {
		require.NoError(t, rt.Step(1.0/60))
		require.NoError(t, hi.Record(h, f, 1.0/60))
	}
	rrt, rh, err := hi.Rewind(15, build(t))
	require.NoError(t, err)
	hi.Truncate(15)
	_, last := hi.Range()
	assert.Equal(t, uint64(15), last)
	require.NoError(t, rrt.Step(1.0/60))
	require.NoError(t, hi.Record(rh, 16, 1.0/60))
	_, _, err = hi.Rewind(16, build(t))
	assert.NoError(t, err)
}
