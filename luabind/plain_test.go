package luabind

import (
	"math"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/luahost/luahost/runtime"
)

// item is Go data with json tags, as an embedder keeps it.
type item struct {
	Name  string            `json:"name"`
	Count int               `json:"count,omitempty"`
	Notes string            `json:"-"`
	Spot  *runtime.Vec3     `json:"spot,omitempty"`
	Stats map[string]uint16 `json:"stats,omitempty"`
}

// TestPlainFromGo: Go slices, maps and structs reach a script as tables
// wherever Go hands it data: attach props, the blackboard, a registered
// function's result, an event, SetSelf.
func TestPlainFromGo(t *testing.T) {
	w := newWorld(t)
	owner := w.spawn("owner")
	require.NoError(t, w.h.Register("stock", func(*runtime.Instance, []any) (any, error) {
		return map[string][]item{"swords": {{Name: "short", Count: 2}, {Name: "long"}}}, nil
	}))
	require.NoError(t, w.rt.Blackboard().Set("shop", struct {
		Open  bool     `json:"open"`
		Hours [2]uint8 `json:"hours"`
	}{true, [2]uint8{9, 17}}))

	e := w.rt.Spawn()
	inst := w.attach(e, "embed/plain", map[string]any{"loot": []item{{Name: "gem", Notes: "secret", Spot: &runtime.Vec3{X: 1}, Stats: map[string]uint16{"shine": 3}}}})
	require.NoError(t, w.rt.Activate(e))
	require.NoError(t, w.h.SetSelf(inst, "gift", &struct {
		From  runtime.Handle `json:"from"`
		Items []string
	}{owner, []string{"a", "b"}}))
	w.step(1, 0.1)
	_, err := w.rt.Events().Notify("give", []int64{1 << 53, -7}, -1)
	require.NoError(t, err)
	w.h.Flush()
	w.requireNoErrors()
	assert.Equal(t, []string{
		"props\t{1={name=gem spot=vec3(1, 0, 0) stats={shine=3}}}",
		"blackboard\t{hours={1=9 2=17} open=true}",
		"stock\t{swords={1={count=2 name=short} 2={name=long}}}",
		"self\t{Items={1=a 2=b} from=entity(1:1)}",
		"event\t{1=9.007199254741e+15 2=-7}\t9007199254740992",
	}, w.takeLines())
}

// TestPlainFromGoRefused: data with no plain form, or integers a Lua
// number cannot hold exactly, are errors naming the value's path, and
// nothing is attached, stored, sent or returned.
func TestPlainFromGoRefused(t *testing.T) {
	w := newWorld(t)
	e := w.rt.Spawn()
	_, err := w.h.Attach(e, "embed/plain", map[string]any{"loot": []any{1, 2, make(chan int)}})
	require.ErrorIs(t, err, runtime.ErrNotPlain)
	assert.Equal(t, "attach embed/plain: not plain data: props.loot[3]: cannot store a value of type chan int", err.Error())
	insts, err := w.rt.Instances(e)
	require.NoError(t, err)
	assert.Empty(t, insts)

	err = w.rt.Blackboard().Set("id", uint64(math.MaxUint64))
	assert.ErrorContains(t, err, `blackboard key "id": not plain data: cannot store the integer 18446744073709551615`)
	_, err = w.rt.Events().Notify("give", map[string]any{"id": int64(1<<53 + 1)}, -1)
	assert.ErrorContains(t, err, `event "give": not plain data: data.id: cannot store the integer 9007199254740993`)

	require.NoError(t, w.h.Register("big", func(*runtime.Instance, []any) (any, error) {
		return []item{{Name: "x", Count: math.MaxInt64}}, nil
	}))
	require.NoError(t, w.h.Reload("caller", []byte(`return { onCreate = function() print(pcall(big)) end }`)))
	w.attach(w.rt.Spawn(), "caller", nil)
	w.h.Flush()
	assert.Equal(t, []string{"false\ttestdata/scripts/caller.lua:1: big: not plain data: result[1].count: cannot store the integer 9223372036854775807: a Lua number holds integers up to ±2^53 exactly"}, w.takeLines())
}
