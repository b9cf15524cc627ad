package departed

import (
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/luahost/luahost/runtime"
)

func TestListForgetsTheOldest(t *testing.T) {
	var d List[uint64]
	for i := range Max + 2 {
		d.Add(runtime.Handle{Index: uint32(i + 1), Gen: 1}, uint64(i))
	}
	_, ok := d.Get(runtime.Handle{Index: 1, Gen: 1})
	assert.False(t, ok, "the oldest departure is forgotten")
	_, ok = d.Get(runtime.Handle{Index: 2, Gen: 1})
	assert.False(t, ok, "and the next")
	id, ok := d.Get(runtime.Handle{Index: 3, Gen: 1})
	assert.True(t, ok)
	assert.Equal(t, uint64(2), id)
	id, ok = d.Get(runtime.Handle{Index: Max + 2, Gen: 1})
	assert.True(t, ok, "the latest is remembered")
	assert.Equal(t, uint64(Max+1), id)
	assert.Len(t, d.ids, Max)
}
