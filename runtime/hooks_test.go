package runtime

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestFrameStart(t *testing.T) {
	// FrameStart runs inside the frame: after the frame number moved and
	// before the first update; a kill it causes waits for the flush.
	rt := New(Options{})
	log := &recorder{}
	s := &testScript{name: "s", log: log}
	e := rt.Spawn()
	_, err := rt.Attach(e, s, "a")
	require.NoError(t, err)
	require.NoError(t, rt.Activate(e))
	log.take()
	rt.BeforeStep(func() { log.add("before frame %d", rt.Frame()) })
	rt.FrameStart(func() {
		log.add("start frame %d stepping %v", rt.Frame(), rt.Stepping())
		if rt.Frame() == 2 {
			_, err := rt.Kill(e)
			require.NoError(t, err)
			st, _ := rt.State(e)
			log.add("killed: %s", st)
		}
	})
	require.NoError(t, rt.Step(1))
	require.NoError(t, rt.Step(1))
	assert.Equal(t, []string{
		"before frame 0", "start frame 1 stepping true", "update a",
		"before frame 1", "start frame 2 stepping true", "killed: dying", "destroy a",
	}, log.take())
}

func TestBlackboardOnSet(t *testing.T) {
	b := newBlackboard()
	var got []string
	b.OnSet(func(key string, v any) { got = append(got, key+"="+FormatPlain(v)) })
	require.NoError(t, b.Set("a", 1))
	b.SetPlain("t", &Table{Fields: []Field{{Key: "x", Value: true}}})
	require.NoError(t, b.Set("a", nil))
	assert.Equal(t, []string{"a=1", "t={x=true}", "a=nil"}, got, "every write, deletes included")
	b.OnSet(nil)
	require.NoError(t, b.Set("b", 2))
	assert.Len(t, got, 3)
}
