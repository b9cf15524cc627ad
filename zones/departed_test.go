package zones

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/luahost/luahost/runtime"
)

func TestDepartedForgetsTheOldest(t *testing.T) {
	var d departed[uint64]
	for i := range MaxDeparted + 2 {
		d.add(runtime.Handle{Index: uint32(i + 1), Gen: 1}, uint64(i))
	}
	_, ok := d.get(runtime.Handle{Index: 1, Gen: 1})
	assert.False(t, ok, "the oldest departure is forgotten")
	_, ok = d.get(runtime.Handle{Index: 2, Gen: 1})
	assert.False(t, ok, "and the next")
	id, ok := d.get(runtime.Handle{Index: 3, Gen: 1})
	assert.True(t, ok)
	assert.Equal(t, uint64(2), id)
	id, ok = d.get(runtime.Handle{Index: MaxDeparted + 2, Gen: 1})
	assert.True(t, ok, "the latest is remembered")
	assert.Equal(t, uint64(MaxDeparted+1), id)
	assert.Len(t, d.ids, MaxDeparted)
}
