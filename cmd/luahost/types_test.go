package main

import (
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestTypes: "luahost types DIR" makes DIR and writes the definition file
// (valid Lua, defining ctx's functions) and a .luarc.json pointing at it;
// a missing DIR argument is bad usage.
func TestTypes(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "editor")
	res := luahostRun(t, "types", dir)
	require.Equal(t, 0, res.code, res.stderr)
	src, err := os.ReadFile(filepath.Join(dir, "luahost.d.lua"))
	require.NoError(t, err)
	assert.Contains(t, string(src), "---@meta")
	assert.Contains(t, string(src), "function Ctx.query(filters) end")
	if luac, err := exec.LookPath("luac5.1"); err == nil {
		out, err := exec.Command(luac, "-p", filepath.Join(dir, "luahost.d.lua")).CombinedOutput()
		assert.NoError(t, err, string(out))
	}
	cfg, err := os.ReadFile(filepath.Join(dir, ".luarc.json"))
	require.NoError(t, err)
	var conf map[string]any
	require.NoError(t, json.Unmarshal(cfg, &conf))
	assert.Equal(t, []any{"luahost.d.lua"}, conf["workspace.library"])
	assert.Contains(t, conf["diagnostics.globals"], "vec3")

	assert.Equal(t, 2, luahostRun(t, "types").code)
}
