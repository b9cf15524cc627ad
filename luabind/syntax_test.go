package luabind

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/yuin/gopher-lua/parse"
)

// TestCheckSyntaxAgreesWithParser: over every Lua file of the repository,
// the syntax pre-check finds an error exactly where gopher-lua's parser
// refuses the file, so that it never reports an error in a valid script
// and never misses one.
func TestCheckSyntaxAgreesWithParser(t *testing.T) {
	var files []string
	require.NoError(t, filepath.WalkDir("..", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && strings.HasPrefix(d.Name(), ".") && path != ".." {
			return filepath.SkipDir
		}
		// Regular files only: the hostile corpus holds links to /dev/zero.
		if d.Type().IsRegular() && strings.HasSuffix(path, ".lua") {
			files = append(files, path)
		}
		return nil
	}))
	require.Greater(t, len(files), 100)
	for _, path := range files {
		src, err := os.ReadFile(path)
		require.NoError(t, err)
		_, perr := parse.Parse(strings.NewReader(string(src)), path)
		se := checkSyntax(string(src))
		if perr == nil {
			assert.Nil(t, se, "%s parses, but the check says %v", path, se)
		} else {
			assert.NotNil(t, se, "%s does not parse (%v), but the check finds nothing", path, perr)
		}
	}
}
