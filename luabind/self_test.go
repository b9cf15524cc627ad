package luabind

import (
	"errors"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/luahost/luahost/runtime"
)

// TestSelf: Self copies an instance's self out as plain data, entity
// values as handles and vectors as Vec3; SetSelf writes one key the
// script sees in its next callback, and the copy Self returned earlier
// does not change.
func TestSelf(t *testing.T) {
	w := newWorld(t)
	target := w.spawn("goblin")
	e := w.rt.Spawn()
	inst := w.attach(e, "embed/self", map[string]any{"hp": 7})
	require.NoError(t, w.rt.Activate(e))
	w.step(1, 0.1)

	before, err := w.h.Self(inst)
	require.NoError(t, err)
	assert.Equal(t, `{frames=1, home=vec3(1, 2, 3), hp=7, me=entity(2:1), stats={level=1, tags={"a", "b"}}}`,
		runtime.FormatPlain(sortPlain(before)))
	assert.Equal(t, e, before.Get("me"), "an entity value is its handle")

	require.NoError(t, w.h.SetSelf(inst, "target", target))
	require.NoError(t, w.h.SetSelf(inst, "gift", map[string]any{"item": "sword", "count": 2, "spot": runtime.Vec3{Y: 5}}))
	require.NoError(t, w.h.SetSelf(inst, "hp", nil))
	w.step(1, 0.1)
	w.requireNoErrors()
	assert.Equal(t, []string{"target\tentity(1:1)\tactive", "gift\tsword\t2\t5"}, w.takeLines())

	after, err := w.h.Self(inst)
	require.NoError(t, err)
	assert.Nil(t, after.Get("hp"), "a nil value removes the key")
	assert.Equal(t, 2.0, after.Get("frames"))
	assert.Equal(t, target, after.Get("target"))
	assert.Equal(t, 1.0, before.Get("frames"), "an earlier copy does not change")
	assert.Equal(t, 7.0, before.Get("hp"))

	// A killed target stays an entity value: the script sees it dead.
	_, err = w.rt.Kill(target)
	require.NoError(t, err)
	w.step(1, 0.1)
	assert.Equal(t, []string{"target\tentity(1:1)\tdead", "gift\tsword\t2\t5"}, w.takeLines())
}

// TestSelfRefused: SetSelf refuses values that are not plain data (naming
// their path), writes during a frame, and destroyed instances; Self
// refuses a self with a function in it, and both refuse instances that
// are not this host's Lua instances. A refused SetSelf changes nothing.
func TestSelfRefused(t *testing.T) {
	w := newWorld(t)
	e := w.rt.Spawn()
	inst := w.attach(e, "embed/self", nil)
	require.NoError(t, w.rt.Activate(e))

	err := w.h.SetSelf(inst, "gift", map[string]any{"items": []any{1, make(chan int)}})
	require.ErrorIs(t, err, runtime.ErrNotPlain)
	assert.Contains(t, err.Error(), "self.gift.items[2]: ")
	self, err := w.h.Self(inst)
	require.NoError(t, err)
	assert.Nil(t, self.Get("gift"), "a refused write changes nothing")

	// During a frame: from a Go-native script's update, and from a
	// registered function a Lua callback calls during setup.
	writer := &selfWriter{h: w.h, inst: inst}
	_, err = w.rt.Attach(w.spawn(""), writer, nil)
	require.NoError(t, err)
	w.step(1, 0.1)
	w.requireNoErrors()
	require.ErrorIs(t, writer.set, runtime.ErrStepping)
	assert.NoError(t, writer.read, "reading during a frame is allowed")
	var nested error
	require.NoError(t, w.h.Register("poke", func(*runtime.Instance, []any) (any, error) {
		nested = w.h.SetSelf(inst, "hp", 1)
		return nil, nil
	}))
	require.NoError(t, w.h.Reload("poker", []byte(`return { onCreate = function() poke() end }`)))
	w.attach(w.rt.Spawn(), "poker", nil)
	require.ErrorIs(t, nested, runtime.ErrStepping, "inside a callback outside a frame")
	self, err = w.h.Self(inst)
	require.NoError(t, err)
	assert.Equal(t, 10.0, self.Get("hp"))

	sel := w.rt.Spawn()
	selfish := w.attach(sel, "embed/selfish", nil)
	_, err = w.h.Self(selfish)
	require.ErrorIs(t, err, runtime.ErrNotPlain)
	assert.Contains(t, err.Error(), "self.nested.helper: cannot store a function")

	// A Go-native instance is not this host's.
	goInst, err := w.rt.Attach(w.rt.Spawn(), &goScript{name: "go"}, nil)
	require.NoError(t, err)
	_, err = w.h.Self(goInst)
	assert.ErrorContains(t, err, "not an instance of a Lua script of this host")
	other := newWorld(t)
	assert.ErrorContains(t, other.h.SetSelf(inst, "hp", 1), "not an instance of a Lua script of this host")
	_, err = w.h.Self(nil)
	assert.ErrorContains(t, err, "nil instance")

	// A destroyed (stale) instance.
	_, err = w.rt.Kill(e)
	require.NoError(t, err)
	w.step(1, 0.1)
	_, err = w.h.Self(inst)
	assert.ErrorIs(t, err, ErrInstanceGone)
	assert.ErrorIs(t, w.h.SetSelf(inst, "hp", 1), ErrInstanceGone)
	require.True(t, w.rt.Detach(selfish))
	_, err = w.h.Self(selfish)
	assert.True(t, errors.Is(err, ErrInstanceGone), "a detached instance: %v", err)
}

// TestSetSelfFaulted: a faulted instance's self can be read and repaired;
// a reload that retries it then finds the repaired state.
func TestSetSelfFaulted(t *testing.T) {
	w := newWorld(t)
	src := `return { onUpdate = function(self) print("hp", self.hp + 1) end }`
	require.NoError(t, w.h.Reload("fragile", []byte(src)))
	e := w.rt.Spawn()
	inst := w.attach(e, "fragile", nil)
	require.NoError(t, w.rt.Activate(e))
	w.step(1, 0.1)
	require.Len(t, w.errs, 1)
	require.True(t, inst.Faulted())

	require.NoError(t, w.h.SetSelf(inst, "hp", 41))
	require.NoError(t, w.h.Reload("fragile", []byte(src+" ")))
	w.step(1, 0.1)
	assert.Equal(t, []string{"hp\t42"}, w.takeLines())
	assert.False(t, inst.Faulted())
}

// selfWriter is a Go-native script that reads and writes a Lua
// instance's self from its update.
type selfWriter struct {
	h         *Host
	inst      *runtime.Instance
	set, read error
}

func (s *selfWriter) Name() string  { return "selfWriter" }
func (s *selfWriter) Priority() int { return 0 }
func (s *selfWriter) Update(*runtime.Instance, float64) error {
	s.set = s.h.SetSelf(s.inst, "hp", 1)
	_, s.read = s.h.Self(s.inst)
	return nil
}

// TestSelfBounded: Self of a self holding data shared at 2^22 places
// (testdata/scripts/dag/self.lua) is an error after a bounded copy.
func TestSelfBounded(t *testing.T) {
	w := newWorld(t, withBudget(hostileBudget, 0))
	inst := w.attach(w.rt.Spawn(), "dag/self", nil)
	w.requireNoErrors()
	_, err := w.h.Self(inst)
	require.ErrorIs(t, err, runtime.ErrNotPlain)
	assert.Contains(t, err.Error(), "self.d.")
	assert.Contains(t, err.Error(), "more than 1048576 values")
}

// TestHostInstances: Host.Instances yields a Lua script's live instances
// in attach order, which Self then reads; nothing for a script not
// loaded.
func TestHostInstances(t *testing.T) {
	w := newWorld(t)
	for _, hp := range []int{3, 5, 8} {
		w.attach(w.rt.Spawn(), "embed/self", map[string]any{"hp": hp})
	}
	w.attach(w.rt.Spawn(), "embed/selfish", nil)
	var hps []any
	for inst := range w.h.Instances("embed/self") {
		self, err := w.h.Self(inst)
		require.NoError(t, err)
		hps = append(hps, self.Get("hp"))
	}
	assert.Equal(t, []any{3.0, 5.0, 8.0}, hps)
	n := 0
	for range w.h.Instances("embed/none") {
		n++
	}
	assert.Zero(t, n)
}

// TestSelfPreview: a preview shows at most its limit of keys and values,
// costs that much whatever the self holds, and says when it left some
// out; entity values, vectors and values with no plain form are shown.
func TestSelfPreview(t *testing.T) {
	const src = `return {
  onCreate = function(self, ctx)
    local t = {}
    for i = 1, 200000 do t[i] = i end
    self.big = t
    self.me = ctx.entity
    self.at = vec3(1, 2, 3)
    self.fn = function() end
  end,
}`
	w := newWorld(t, withBudget(10*time.Second, 0))
	require.NoError(t, w.h.Reload("previewed", []byte(src)))
	e := w.spawn("", "previewed")
	insts, err := w.rt.Instances(e)
	require.NoError(t, err)
	start := time.Now()
	self, omitted, err := w.h.SelfPreview(insts[0], 100)
	require.NoError(t, err)
	assert.Less(t, time.Since(start), 50*time.Millisecond, "the preview costs what it shows")
	assert.True(t, omitted)
	got := map[string]any{}
	values := 0
	for _, f := range self.Fields {
		got[f.Key.(string)] = f.Value
		values += 2
		if big, ok := f.Value.(*runtime.Table); ok {
			values += 2 * len(big.Fields)
		}
	}
	assert.LessOrEqual(t, values, 100)
	assert.Equal(t, e, got["me"])
	assert.Equal(t, runtime.Vec3{X: 1, Y: 2, Z: 3}, got["at"])
	assert.Equal(t, "<function>", got["fn"])
}
