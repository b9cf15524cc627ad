package luabind

import (
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	lua "github.com/yuin/gopher-lua"
	"github.com/yuin/gopher-lua/parse"

	"github.com/luahost/luahost/runtime"
)

// defRE matches a function definition of the definition file, its doc
// and annotation lines above it.
var defRE = regexp.MustCompile(`(?m)^---([^@\n][^\n]*)\n((?:---@[^\n]*\n)*)function ([\w.:]+)\(([^)]*)\) end$`)

// typeDef is one function of the definition file.
type typeDef struct {
	doc         string
	params      []string
	annotations string
}

// readTypes writes the definitions of w's host to a new folder and returns
// the definition file's text, its functions by qualified name
// ("Ctx.spawn", "Entity:setPosition", "vec3") and the config.
func readTypes(t *testing.T, w *world) (string, map[string]typeDef, map[string]any) {
	t.Helper()
	dir := t.TempDir()
	require.NoError(t, w.h.WriteTypes(dir))
	src, err := os.ReadFile(filepath.Join(dir, TypesFile))
	require.NoError(t, err)
	defs := map[string]typeDef{}
	for _, m := range defRE.FindAllStringSubmatch(string(src), -1) {
		var ps []string
		if m[4] != "" {
			ps = strings.Split(m[4], ", ")
		}
		defs[m[3]] = typeDef{doc: m[1], params: ps, annotations: m[2]}
	}
	cfg, err := os.ReadFile(filepath.Join(dir, TypesConfig))
	require.NoError(t, err)
	var conf map[string]any
	require.NoError(t, json.Unmarshal(cfg, &conf), string(cfg))
	return string(src), defs, conf
}

// TestWriteTypesIsLua: the definition file starts with ---@meta and is a
// valid Lua chunk for gopher-lua's parser and, when installed, for
// reference Lua's compiler.
func TestWriteTypesIsLua(t *testing.T) {
	src, _, _ := readTypes(t, newWorld(t))
	assert.True(t, strings.HasPrefix(src, "---@meta"), "---@meta first")
	_, err := parse.Parse(strings.NewReader(src), TypesFile)
	require.NoError(t, err)
	luac, err := exec.LookPath("luac5.1")
	if err != nil {
		t.Skip("luac5.1 is not installed")
	}
	dir := t.TempDir()
	file := filepath.Join(dir, TypesFile)
	require.NoError(t, os.WriteFile(file, []byte(src), 0o644))
	out, err := exec.Command(luac, "-p", file).CombinedOutput()
	assert.NoError(t, err, string(out))
}

// TestWriteTypesCoversBindings: every function the runtime binds (ctx's,
// entity values', vectors', the host's globals, registered functions) is
// defined in the file with its doc line and the registry's parameters,
// optional ones marked; every field is annotated; the config points at
// the file and lists the sandbox's globals.
func TestWriteTypesCoversBindings(t *testing.T) {
	w := newWorld(t)
	require.NoError(t, w.h.Register("score", func(*runtime.Instance, []any) (any, error) { return nil, nil }))
	src, defs, conf := readTypes(t, w)

	st, globals := boundState(t, w)
	var bound []string
	for _, c := range []struct {
		prefix string
		table  *lua.LTable
	}{
		{"Ctx.", st.ctxFields},
		{"Entity:", st.entityMT.RawGetString("__index").(*lua.LTable)},
		{"Vec3:", st.vecMT.RawGetString("__index").(*lua.LTable)},
	} {
		c.table.ForEach(func(k, v lua.LValue) {
			if _, ok := v.(*lua.LFunction); ok {
				bound = append(bound, c.prefix+k.String())
			}
		})
	}
	bound = append(bound, globals...)
	assert.Contains(t, bound, "score")
	for _, name := range bound {
		assert.Contains(t, defs, name, "bound function %s is not defined", name)
	}

	for _, m := range API() {
		switch m.Kind {
		case APIField:
			assert.Regexp(t, fmt.Sprintf(`(?m)^---@field %s\??\s+\S.* %s$`, regexp.QuoteMeta(m.Name), regexp.QuoteMeta(m.Doc)), src, "%s.%s", m.Owner, m.Name)
			continue
		case APICallback:
			assert.Contains(t, src, fmt.Sprintf("---@field %s? %s %s\n", m.Name, funType(m), m.Doc))
			continue
		}
		name := m.Name
		switch {
		case m.Kind == APIMethod:
			name = m.Owner + ":" + m.Name
		case m.Owner != "":
			name = m.Owner + "." + m.Name
		}
		d, ok := defs[name]
		if !assert.True(t, ok, "%s is not defined", name) {
			continue
		}
		assert.Equal(t, m.Doc, d.doc, name)
		require.Len(t, d.params, len(m.Params), name)
		for i, p := range m.Params {
			assert.Equal(t, p.Name, d.params[i], name)
			mark := ""
			if p.Optional && p.Name != "..." {
				mark = "?"
			}
			assert.Contains(t, d.annotations, fmt.Sprintf("---@param %s%s %s\n", p.Name, mark, p.Type), name)
		}
		for _, r := range m.Returns {
			assert.Contains(t, d.annotations, fmt.Sprintf("---@return %s %s\n", r.Type, r.Name), name)
		}
	}

	assert.Equal(t, []any{TypesFile}, conf["workspace.library"])
	var listed []string
	for _, g := range conf["diagnostics.globals"].([]any) {
		listed = append(listed, g.(string))
	}
	assert.Equal(t, w.h.GlobalNames(), listed)
	assert.Contains(t, listed, "score")
}
