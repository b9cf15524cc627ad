package luabind

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/luahost/luahost/runtime"
)

// TestSnapshotAsync: the bytes SnapshotAsync encodes while the world
// runs on (its selves, timers, tags and blackboard changing) are those
// of a synchronous snapshot taken at the same moment; the race detector
// finds the copy shares nothing the world writes.
func TestSnapshotAsync(t *testing.T) {
	w := newWorld(t)
	for i := range 50 {
		e := w.spawn("", "snapshot/carrier", "spinner")
		require.NoError(t, w.rt.Tag(e, "t"+string(rune('a'+i%5))))
	}
	require.NoError(t, w.h.Reload("snapshot/board", []byte(`return {
  onUpdate = function(self, ctx) ctx.blackboard.tick = { n = ctx.frame, at = ctx.entity } end,
}`)))
	w.spawn("board", "snapshot/board")
	w.step(5, 0.02)

	sync, err := w.h.Snapshot()
	require.NoError(t, err)
	want, err := sync.Marshal()
	require.NoError(t, err)
	p, err := w.h.SnapshotAsync()
	require.NoError(t, err)
	w.step(20, 0.02)
	for inst := range w.rt.AllInstances() {
		require.NoError(t, w.rt.Tag(inst.Entity(), "later"))
	}
	got, err := p.Wait()
	require.NoError(t, err)
	assert.Equal(t, string(want), string(got))
	<-p.Done()
	assert.Equal(t, sync.Frame, p.World().Frame)
	w.requireNoErrors()

	g := newWorld(t)
	_, err = g.rt.Attach(g.rt.Spawn(), &goScript{name: "native", trace: new([]string)}, nil)
	require.NoError(t, err)
	_, err = g.h.SnapshotAsync()
	require.ErrorIs(t, err, runtime.ErrNotSaveable, "refusals are Snapshot's")
}
