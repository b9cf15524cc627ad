package luabind

import (
	"bytes"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/luahost/luahost/runtime"
)

// listing prints the keys of the globals and of every library, in pairs
// order.
const listing = `
local function keys(t)
  local out = {}
  for k in pairs(t) do out[#out + 1] = tostring(k) end
  return table.concat(out, " ")
end
return { onCreate = function(self, ctx)
  for _, t in ipairs({ _G, string, table, math, os, coroutine }) do print(keys(t)) end
end }
`

// TestPairsOrderIsDeterministic: gopher-lua fills its libraries from Go
// maps, whose order changes from run to run; the sandbox rebuilds them so
// that a script listing them prints the same thing every time.
func TestPairsOrderIsDeterministic(t *testing.T) {
	run := func() string {
		var out bytes.Buffer
		rt := runtime.New(runtime.Options{})
		h, err := New(rt, Options{Dir: "testdata/scripts", Stdout: &out})
		require.NoError(t, err)
		require.NoError(t, h.Reload("listing", []byte(listing)))
		_, err = h.Attach(rt.Spawn(), "listing", nil)
		require.NoError(t, err)
		require.NoError(t, h.Close())
		return out.String()
	}
	first := run()
	for range 5 {
		require.Equal(t, first, run())
	}
	lines := strings.Split(strings.TrimSpace(first), "\n")
	require.Len(t, lines, 6)
	for i, lib := range []string{"string", "table", "math", "os", "coroutine"} {
		keys := strings.Fields(lines[i+1])
		assert.IsNonDecreasing(t, keys, "%s is listed in sorted order", lib)
		assert.NotContains(t, keys, "__index", lib)
	}
}
