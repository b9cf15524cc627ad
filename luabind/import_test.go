package luabind

import (
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	lua "github.com/yuin/gopher-lua"

	"github.com/luahost/luahost/runtime"
)

// TestImportChangesNothing: importing luabind leaves gopher-lua's
// process-wide settings alone; only making a Host limits the array part.
// It runs in a fresh process of this test binary, where no other test
// has made a Host yet.
func TestImportChangesNothing(t *testing.T) {
	if os.Getenv("LUAHOST_IMPORT_PROBE") == "1" {
		before := lua.MaxArrayIndex
		h, err := New(runtime.New(runtime.Options{}), Options{Dir: t.TempDir()})
		require.NoError(t, err)
		require.NoError(t, h.Close())
		os.Stdout.WriteString("MaxArrayIndex " + strconv.Itoa(before) + " " + strconv.Itoa(lua.MaxArrayIndex) + "\n")
		return
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestImportChangesNothing$")
	cmd.Env = append(os.Environ(), "LUAHOST_IMPORT_PROBE=1")
	out, err := cmd.CombinedOutput()
	require.NoError(t, err, "%s", out)
	var line string
	for l := range strings.SplitSeq(string(out), "\n") {
		if strings.HasPrefix(l, "MaxArrayIndex ") {
			line = l
		}
	}
	assert.Equal(t, "MaxArrayIndex 67108864 262145", line, "import keeps gopher-lua's default; New sets the limit")
}
