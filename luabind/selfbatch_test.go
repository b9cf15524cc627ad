package luabind

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	lua "github.com/yuin/gopher-lua"
)

// TestSelvesMadeAhead checks what making selves ahead costs and keeps:
// every instance gets its own deep copy of the properties, and what is
// made and not yet taken stays at most an eighth of a state's selves and
// at most selfRun tables.
func TestSelvesMadeAhead(t *testing.T) {
	for _, n := range []int{1, 7, 100, 1000} {
		w := newWorld(t)
		seen := map[*lua.LTable]bool{}
		for range n {
			e := w.rt.Spawn()
			self := w.attach(e, "self/bump", nil).Data.(*instance).self
			bag := self.RawGetString("bag").(*lua.LTable)
			assert.False(t, seen[self] || seen[bag], "a self or its bag is shared")
			seen[self], seen[bag] = true, true
			assert.Equal(t, lua.LNumber(10), self.RawGetString("startHp"))
			assert.Equal(t, lua.LNumber(1), self.RawGetString("startBag"))
			assert.Equal(t, 2, bag.Len(), "the instance's own item only")
		}
		st := w.h.scripts["self/bump"].st
		ahead := len(st.selves.ahead())
		assert.LessOrEqual(t, ahead, max(1, n/selfShare), "n=%d", n)
		assert.LessOrEqual(t, ahead, selfRun, "n=%d", n)
		w.requireNoErrors()
	}
}

// TestSelvesFromReloadedProperties: selves made ahead by the old version
// are dropped with it; instances attached after a hot reload start from
// the new properties, and those migrated keep their data.
func TestSelvesFromReloadedProperties(t *testing.T) {
	w := newWorld(t)
	var old []*lua.LTable
	for range 40 {
		old = append(old, w.attach(w.rt.Spawn(), "self/bump", nil).Data.(*instance).self)
	}
	require.NotEmpty(t, w.h.scripts["self/bump"].st.selves.ahead(), "40 selves leave some made ahead")
	require.NoError(t, w.h.Reload("self/bump", []byte(`return { properties = { hp = 3, bag = {} } }`)))
	fresh := w.attach(w.rt.Spawn(), "self/bump", nil).Data.(*instance).self
	assert.Equal(t, lua.LNumber(3), fresh.RawGetString("hp"))
	assert.Equal(t, 0, fresh.RawGetString("bag").(*lua.LTable).Len())
	for _, inst := range w.rt.ScriptInstances(w.h.scripts["self/bump"]) {
		self := inst.Data.(*instance).self
		if self == fresh {
			continue
		}
		assert.NotContains(t, old, self, "migrated to a new self")
		assert.Equal(t, lua.LNumber(10), self.RawGetString("startHp"), "the data is kept")
	}
	w.requireNoErrors()
}
