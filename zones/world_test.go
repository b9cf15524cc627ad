package zones_test

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/luahost/luahost/luabind"
	"github.com/luahost/luahost/runtime"
	"github.com/luahost/luahost/zones"
	"github.com/luahost/luahost/zones/internal/zonetest"
)

func TestCrossZone(t *testing.T) {
	two := zones.Layout{Edges: []float64{0}}
	tests := []struct {
		name   string
		ents   []zonetest.Ent
		frames int
		want   string
	}{
		{
			// A broadcast of frame 1 reaches the listeners of both zones,
			// the caster's own included, at the start of frame 2, before
			// their update; their lines come in the order of their
			// identities, not of their zones.
			name: "broadcast",
			ents: []zonetest.Ent{
				{X: -5, Scripts: []string{"caster"}},
				{X: -3, Scripts: []string{"listener"}},
				{X: 5, Scripts: []string{"listener"}},
			},
			frames: 3,
			want: "ping sent 1 got 2 zone 1 updated 1\n" +
				"ping sent 1 got 2 zone 0 updated 1\n",
		},
		{
			// Blackboard writes are visible to every zone from the next
			// frame; of two writes of one key in one frame, the one of
			// the entity of the higher identity wins in both.
			name:   "blackboard",
			ents:   []zonetest.Ent{{X: -5, Scripts: []string{"board"}}, {X: 5, Scripts: []string{"board"}}},
			frames: 3,
			want: "frame 1 zone 0 other nil shared nil\n" +
				"frame 1 zone 1 other nil shared nil\n" +
				"frame 2 zone 0 other 1 shared 1\n" +
				"frame 2 zone 1 other 1 shared 1\n" +
				"frame 3 zone 0 other 2 shared 1\n" +
				"frame 3 zone 1 other 2 shared 1\n",
		},
		{
			// Entity values in data that crosses to another zone stay
			// entity values: they name the entity by its world identity.
			name:   "handles",
			ents:   []zonetest.Ent{{X: -5, Scripts: []string{"pointer"}}, {X: 5, Scripts: []string{"pointer"}}},
			frames: 2,
			want: fmt.Sprintf("zone\t0\town\tuserdata\tother\tuserdata\tentity(#%x)\n", luabind.ChildIdentity(0, 2)) +
				fmt.Sprintf("zone\t1\town\tuserdata\tother\tuserdata\tentity(#%x)\n", luabind.ChildIdentity(0, 1)),
		},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			out, errs := output(t, two, tc.ents, tc.frames)
			assert.Empty(t, errs)
			assert.Equal(t, tc.want, out)
		})
	}
}

// jumper is a Go-native script that moves its entity to x = -5: an
// entity with a Go-native instance cannot be handed off.
type jumper struct{}

func (jumper) Name() string  { return "jumper" }
func (jumper) Priority() int { return 0 }
func (jumper) Update(inst *runtime.Instance, _ float64) error {
	return inst.Runtime().Set(inst.Entity(), runtime.Position, runtime.Vec3{X: -5})
}

// TestHandoffFailsInOneZone: when one zone cannot hand off its leavers,
// Step says so, and the entities the other zones handed off in the same
// frame still arrive.
func TestHandoffFailsInOneZone(t *testing.T) {
	var out bytes.Buffer
	w, _ := newWorld(t, zones.Layout{Edges: []float64{0}}, []zonetest.Ent{{Name: "m", X: -0.5, Scripts: []string{"mover"}}}, &out)
	rt1 := w.Host(1).Runtime()
	e := rt1.SpawnAt(runtime.Transform{Position: runtime.Vec3{X: 5}, Scale: runtime.Vec3{X: 1, Y: 1, Z: 1}})
	_, err := rt1.Attach(e, jumper{}, nil)
	require.NoError(t, err)
	require.NoError(t, rt1.Activate(e))
	err = w.Step(1.0 / 60)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "zone 1: hand off 1 entities to zone 0: ")
	_, ok := rt1.Find("m")
	assert.True(t, ok, "the mover arrived in zone 1")
}

// TestNewPlacesEntities: entities a build makes outside its zone's strip
// move to the zone that holds them before the first frame.
func TestNewPlacesEntities(t *testing.T) {
	layout := zones.Layout{Edges: []float64{0, 10}}
	w, err := zones.New(zones.Options{Layout: layout, Stdout: io.Discard}, func(i int, out io.Writer, join func(*luabind.Host)) error {
		rt := runtime.New(runtime.Options{})
		h, err := luabind.New(rt, luabind.Options{Dir: "testdata/scripts", Stdout: out, Budget: -1})
		if err != nil {
			return err
		}
		join(h)
		if i != 0 {
			return nil
		}
		for _, x := range []float64{-5, 5, 15, 25} {
			at := runtime.Identity()
			at.Position.X = x
			e := rt.SpawnAt(at)
			if _, err := h.Attach(e, "strider", nil); err != nil {
				return err
			}
			if err := rt.Activate(e); err != nil {
				return err
			}
		}
		return nil
	})
	require.NoError(t, err)
	t.Cleanup(func() { _ = w.Close() })
	for i, want := range []int{1, 1, 2} {
		assert.Equal(t, want, w.Host(i).Runtime().Stats().Entities, "zone %d", i)
	}
	assert.Equal(t, uint64(3), w.Handoffs())
}

// TestHandoffBouncesBack: when the zone an entity walks into cannot
// import it (its script does not load there: the file was broken after
// the first zone loaded it), the entity goes back to the zone it came
// from and runs on there, outside its strip; Step says so, naming both
// zones and the script's error, and nothing is lost.
func TestHandoffBouncesBack(t *testing.T) {
	broken := t.TempDir()
	require.NoError(t, os.WriteFile(filepath.Join(broken, "mover.lua"), []byte("return {\n  onUpdate = function(self, ctx)\n"), 0o644))
	var out bytes.Buffer
	log := &zonetest.ErrorLog{}
	w, err := zones.New(zones.Options{Layout: zones.Layout{Edges: []float64{0}}, Stdout: &out}, func(i int, zout io.Writer, join func(*luabind.Host)) error {
		rt := runtime.New(runtime.Options{OnError: log.Add})
		dir := "testdata/scripts"
		if i == 1 {
			dir = broken
		}
		h, err := luabind.New(rt, luabind.Options{Dir: dir, Stdout: zout, Log: io.Discard, Budget: -1})
		if err != nil {
			return err
		}
		join(h)
		if i == 0 {
			at := runtime.Identity()
			at.Position = runtime.Vec3{X: -0.5}
			e := rt.SpawnAt(at)
			require.NoError(t, rt.SetName(e, "m"))
			_, err := h.Attach(e, "mover", nil)
			require.NoError(t, err)
			require.NoError(t, rt.Activate(e))
		}
		return nil
	})
	require.NoError(t, err)
	t.Cleanup(func() { _ = w.Close() })
	rt0, rt1 := w.Host(0).Runtime(), w.Host(1).Runtime()

	for frame := 1; frame <= 2; frame++ {
		err = w.Step(1.0 / 60)
		require.Error(t, err, "frame %d", frame)
		assert.Contains(t, err.Error(), "zone 1: take 1 entities from zone 0: ")
		assert.Contains(t, err.Error(), "mover.lua:3: 'end' expected")
		assert.Contains(t, err.Error(), "they went back to zone 0")
		e, ok := rt0.Find("m")
		require.True(t, ok, "frame %d: the mover is back in zone 0", frame)
		_, ok = rt1.Find("m")
		assert.False(t, ok, "frame %d: and not in zone 1", frame)
		p, _ := rt0.Get(e, runtime.Position)
		assert.Equal(t, float64(frame)-0.5, p.X, "frame %d: it runs on in zone 0", frame)
		st, _ := rt0.State(e)
		assert.Equal(t, runtime.StateActive, st)
	}
	assert.Zero(t, w.Handoffs(), "nothing was handed off")
	assert.Empty(t, log.All(), "no script error")
}
