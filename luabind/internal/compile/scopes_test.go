package compile

import (
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	lua "github.com/yuin/gopher-lua"
)

// checkScopes reports the locals of p and its functions whose scopes are
// not as a block structure makes them: a scope ends no earlier than the
// instruction before it starts, and a local declared while another is
// in scope goes out of scope first.
func checkScopes(t *testing.T, name string, p *lua.FunctionProto) {
	t.Helper()
	for i, l := range p.DbgLocals {
		assert.GreaterOrEqual(t, l.EndPc, l.StartPc-1, "%s: local %d %q ends before it starts", name, i, l.Name)
		assert.Less(t, l.EndPc, len(p.Code), "%s: local %d %q ends past the code", name, i, l.Name)
		for _, later := range p.DbgLocals[i+1:] {
			if later.StartPc <= l.EndPc {
				assert.LessOrEqual(t, later.EndPc, l.EndPc, "%s: %q, declared in the scope of %q, outlives it", name, later.Name, l.Name)
			}
		}
	}
	for _, child := range p.FunctionPrototypes {
		checkScopes(t, name, child)
	}
}

// TestScopesNested: every Lua program of the repository compiles to
// scopes that nest, whatever blocks came before (gopher-lua alone ends
// them by register: the locals after a closed block never end).
func TestScopesNested(t *testing.T) {
	var files []string
	require.NoError(t, filepath.WalkDir("../../..", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && strings.HasPrefix(d.Name(), ".") && path != "../../.." {
			return filepath.SkipDir
		}
		if strings.HasSuffix(path, ".lua") && d.Type().IsRegular() {
			files = append(files, path)
		}
		return nil
	}))
	require.NotEmpty(t, files)
	compiled := 0
	for _, path := range files {
		src, err := os.ReadFile(path)
		require.NoError(t, err)
		p, err := Compile(string(src), path, 1<<20)
		if err != nil {
			// Programs that must not compile (hostile, syntax tests).
			continue
		}
		compiled++
		checkScopes(t, path, p)
	}
	assert.Greater(t, compiled, 100)
}

// TestScopesBlocks: the scope of each local ends with its block, for
// every kind of block, and a later local's scope is its own.
func TestScopesBlocks(t *testing.T) {
	for name, tc := range map[string]struct {
		src string
		// live holds the locals in scope at the instruction that
		// reads the global probe.
		live []string
	}{
		"do":            {"do local a, b, c = 1, 2, 3 end local t = probe", nil},
		"do then local": {"do local a, b, c = 1, 2, 3 end local t = {} local z = t[probe]", []string{"t"}},
		"numeric for":   {"for i = 1, 2 do local a = i end local t = {} local z = t[probe]", []string{"t"}},
		"generic for":   {"for k, v in pairs({}) do local a = v end local t = {} local z = t[probe]", []string{"t"}},
		"inside for":    {"for i = 1, 2 do local a = i local z = a[probe] end", []string{"(for index)", "(for limit)", "(for step)", "i", "a"}},
		"while":         {"while x do local a, b = 1, 2 end local t = {} local z = t[probe]", []string{"t"}},
		"repeat":        {"repeat local a, b = 1, 2 until a local t = {} local z = t[probe]", []string{"t"}},
		"repeat until":  {"repeat local a, b = 1, 2 until a[probe]", []string{"a", "b"}},
		"repeat closure": {"repeat local a, b = 1, 2 f = function() return a end until b local t = {} local z = t[probe]",
			[]string{"t"}},
		"if else": {"if x then local a, b = 1, 2 else local c, d, e = 1, 2, 3 end local t = {} local z = t[probe]", []string{"t"}},
		"then":    {"if x then local a, b = 1, 2 else local c, d, e = 1, 2, 3 end if y then local q = {} local z = q[probe] end", []string{"q"}},
		"else":    {"if x then local a, b = 1, 2 else local c, d = 1, 2 local z = d[probe] end", []string{"c", "d"}},
	} {
		t.Run(name, func(t *testing.T) {
			p, err := Compile(tc.src, name, 1<<20)
			require.NoError(t, err)
			checkScopes(t, name, p)
			pc := probeRead(p)
			require.GreaterOrEqual(t, pc, 0)
			var live []string
			for _, l := range p.DbgLocals {
				if l.StartPc <= pc && pc <= l.EndPc {
					live = append(live, l.Name)
				}
			}
			assert.Equal(t, tc.live, live)
		})
	}
}

// probeRead returns the place of the instruction that reads the global
// probe in p, or -1.
func probeRead(p *lua.FunctionProto) int {
	for pc, inst := range p.Code {
		if int(inst>>26) == lua.OP_GETGLOBAL {
			if s, ok := p.Constants[inst&0x3ffff].(lua.LString); ok && s == "probe" {
				return pc
			}
		}
	}
	return -1
}
