package luabind

import (
	"testing"
	"unsafe"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	lua "github.com/yuin/gopher-lua"
)

// TestSelvesMadeAhead checks what making selves ahead costs and keeps:
// every instance gets its own deep copy of the properties (frozen at
// load: self/bump changes its table in every onCreate); selves spawned
// from Lua are made in runs, of which what is not yet taken stays at most
// an eighth of a state's selves and at most selfRun tables; selves
// attached from Go are made one at a time.
func TestSelvesMadeAhead(t *testing.T) {
	for _, tt := range []struct {
		n       int
		fromLua bool
	}{{1, true}, {7, true}, {100, true}, {1000, true}, {100, false}} {
		w := newWorld(t)
		if tt.fromLua {
			w.attach(w.rt.Spawn(), "self/crowd", map[string]any{"count": tt.n})
		} else {
			for range tt.n {
				w.attach(w.rt.Spawn(), "self/bump", nil)
			}
		}
		seen := map[*lua.LTable]bool{}
		count := 0
		for inst := range w.h.Instances("self/bump") {
			self := inst.Data.(*instance).self
			bag := self.RawGetString("bag").(*lua.LTable)
			assert.False(t, seen[self] || seen[bag], "a self or its bag is shared")
			seen[self], seen[bag] = true, true
			assert.Equal(t, lua.LNumber(10), self.RawGetString("startHp"))
			assert.Equal(t, lua.LNumber(1), self.RawGetString("startBag"))
			assert.Equal(t, 2, bag.Len(), "the instance's own item only")
			count++
		}
		require.Equal(t, tt.n, count)
		ahead := len(w.h.Script("self/bump").st.selves.ahead())
		if tt.fromLua {
			assert.LessOrEqual(t, ahead, max(1, tt.n/selfShare), "n=%d", tt.n)
			assert.LessOrEqual(t, ahead, selfRun, "n=%d", tt.n)
		} else {
			assert.Zero(t, ahead, "attached from Go")
		}
		w.requireNoErrors()
	}
}

// TestSelvesFromReloadedProperties: selves made ahead by the old version
// are dropped with it; instances attached after a hot reload start from
// the new properties, and those migrated keep their data.
func TestSelvesFromReloadedProperties(t *testing.T) {
	w := newWorld(t)
	w.attach(w.rt.Spawn(), "self/crowd", map[string]any{"count": 42})
	var old []*lua.LTable
	for inst := range w.h.Instances("self/bump") {
		old = append(old, inst.Data.(*instance).self)
	}
	require.NotEmpty(t, w.h.Script("self/bump").st.selves.ahead(), "42 spawns leave selves made ahead")
	require.NoError(t, w.h.Reload("self/bump", []byte(`return { properties = { hp = 3, bag = {} } }`)))
	fresh := w.attach(w.rt.Spawn(), "self/bump", nil).Data.(*instance).self
	assert.Equal(t, lua.LNumber(3), fresh.RawGetString("hp"))
	assert.Equal(t, 0, fresh.RawGetString("bag").(*lua.LTable).Len())
	n := 0
	for _, inst := range w.rt.ScriptInstances(w.h.Script("self/bump")) {
		self := inst.Data.(*instance).self
		if self == fresh {
			continue
		}
		assert.NotContains(t, old, self, "migrated to a new self")
		assert.Equal(t, lua.LNumber(10), self.RawGetString("startHp"), "the data is kept")
		n++
	}
	assert.Equal(t, 42, n)
	w.requireNoErrors()
}

// TestInstancesInBlocks: the instance records of a crowd spawned from Lua
// are cut from blocks, so that consecutive ones lie side by side; each is
// its own record.
func TestInstancesInBlocks(t *testing.T) {
	w := newWorld(t)
	w.attach(w.rt.Spawn(), "self/crowd", map[string]any{"count": 100})
	var lis []*instance
	for inst := range w.h.Instances("self/bump") {
		lis = append(lis, inst.Data.(*instance))
	}
	require.Len(t, lis, 100)
	adjacent := 0
	for i := 1; i < len(lis); i++ {
		require.NotSame(t, lis[i-1], lis[i])
		if uintptr(unsafe.Pointer(lis[i]))-uintptr(unsafe.Pointer(lis[i-1])) == unsafe.Sizeof(instance{}) {
			adjacent++
		}
	}
	assert.GreaterOrEqual(t, adjacent, 99-100/selfRun, "all but one pair a block")
	w.requireNoErrors()
}
