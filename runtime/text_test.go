package runtime

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestNamesAndTagsAreText: a name or tag that is not valid UTF-8 is
// refused where it enters, so that a snapshot, which writes them as text,
// restores what was saved.
func TestNamesAndTagsAreText(t *testing.T) {
	rt, _ := newTestRuntime(t, Options{})
	h := spawnActive(t, rt, "kept")
	assert.ErrorIs(t, rt.SetName(h, "bad\xff"), ErrBadName)
	name, err := rt.Name(h)
	require.NoError(t, err)
	assert.Equal(t, "kept", name, "a refused name changes nothing")
	assert.ErrorIs(t, rt.Tag(h, "bad\xff"), ErrBadTag)
	assert.False(t, rt.HasTag(h, "bad\xff"))
	require.NoError(t, rt.SetName(h, "héros"))
	require.NoError(t, rt.Tag(h, "été"))
}
