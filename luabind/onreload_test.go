package luabind

import (
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/luahost/luahost/runtime"
)

// TestOnReload: Options.OnReload hears of every reload of a loaded
// script: applied ones with the instances migrated and the time taken,
// refused ones (a compile error, a failing onReload) with the refusal;
// a first load through Reload is no reload.
func TestOnReload(t *testing.T) {
	var got []ReloadInfo
	w := newWorld(t, func(_ *runtime.Options, o *Options) {
		o.OnReload = func(ri ReloadInfo) { got = append(got, ri) }
	})
	v1 := `return { onUpdate = function(self) self.n = (self.n or 0) + 1 end }`
	require.NoError(t, w.h.Reload("counter", []byte(v1)))
	assert.Empty(t, got, "a first load is no reload")
	w.spawn("", "counter")
	w.spawn("", "counter")
	w.step(1, 0.1)

	tests := []struct {
		name      string
		src       string
		instances int
		refusal   string
	}{
		{"applied", v1 + " ", 2, ""},
		{"syntax error", `return {`, 0, "counter.lua:1: '}' expected near <eof>"},
		{"failing onReload", `return { onReload = function(self, old) error("no way") end }`, 0, "no way"},
		{"applied again", v1, 2, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got = nil
			err := w.h.Reload("counter", []byte(tt.src))
			require.Len(t, got, 1)
			ri := got[0]
			assert.Equal(t, "counter", ri.Script)
			assert.Equal(t, "testdata/scripts/counter.lua", ri.File)
			assert.Equal(t, tt.instances, ri.Instances)
			assert.Positive(t, ri.Duration)
			if tt.refusal == "" {
				assert.NoError(t, err)
				assert.NoError(t, ri.Err)
				return
			}
			require.Error(t, ri.Err)
			assert.Same(t, err, ri.Err, "the hook gets the error Reload returns")
			var re *ReloadError
			assert.True(t, errors.As(ri.Err, &re))
			assert.Contains(t, ri.Err.Error(), tt.refusal)
		})
	}
	assert.Equal(t, 2, w.h.Stats().Reloads)
}

// TestObserveReloads: functions given to ObserveReloads hear of every
// reload after Options.OnReload, in the order they were given.
func TestObserveReloads(t *testing.T) {
	var order []string
	w := newWorld(t, func(_ *runtime.Options, o *Options) {
		o.OnReload = func(ri ReloadInfo) { order = append(order, "option "+ri.Script) }
	})
	w.h.ObserveReloads(func(ri ReloadInfo) { order = append(order, "first "+ri.Script) })
	w.h.ObserveReloads(func(ri ReloadInfo) {
		order = append(order, "second "+ri.Script)
		assert.Error(t, ri.Err)
	})
	src := `return { onUpdate = function(self) end }`
	require.NoError(t, w.h.Reload("counter", []byte(src)))
	w.spawn("", "counter")
	assert.Error(t, w.h.Reload("counter", []byte(`return {`)))
	assert.Equal(t, []string{"option counter", "first counter", "second counter"}, order)
}
