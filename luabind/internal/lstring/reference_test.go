package lstring

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	lua "github.com/yuin/gopher-lua"
)

// matrixPrelude prints one line per call: its results, each rendered with
// its type, or "error" when it raised one (the wording of pattern errors
// is not compared here: TestDifferences pins it).
const matrixPrelude = `
local function esc(s)
  local out = {}
  for i = 1, #s do
    local b = s:byte(i)
    if b < 32 or b > 126 or b == 92 then out[#out + 1] = "\\" .. b else out[#out + 1] = string.char(b) end
  end
  return table.concat(out)
end
local function render(...)
  local out = {}
  for i = 1, select("#", ...) do
    local v = select(i, ...)
    out[i] = type(v) == "string" and ("'" .. esc(v) .. "'") or (type(v) .. ":" .. tostring(v))
  end
  return "[" .. table.concat(out, " ") .. "]"
end
local function show(ok, ...)
  if not ok then return "error" end
  return render(...)
end
function C(label, f, ...) print(label .. " " .. show(pcall(f, ...))) end
function G(s, p)
  local steps = {}
  for a, b, c in string.gmatch(s, p) do steps[#steps + 1] = render(a, b, c) end
  return table.concat(steps, "|")
end
`

// TestReferenceMatrix runs every pattern of comparePatterns against every
// subject of compareSubjects through find, match, gmatch and gsub, in a
// state with this package's functions and in reference Lua 5.1
// (Debian's lua5.1), and requires the same results. Without lua5.1 it
// skips, except in CI.
func TestReferenceMatrix(t *testing.T) {
	var script strings.Builder
	for _, p := range comparePatterns {
		if strings.Contains(p, "\x00") {
			// Lua 5.1 reads a pattern as a C string: it ends at a NUL
			// (patterns write %z instead).
			continue
		}
		for _, s := range compareSubjects {
			S, P := luaQuote(s), luaQuote(p)
			label := fmt.Sprintf("%q/%q", p, s)
			for _, call := range []string{
				"string.find, %s, %s", "string.find, %s, %s, 2", "string.find, %s, %s, -2",
				"string.match, %s, %s", "string.match, %s, %s, 3",
				`string.gsub, %s, %s, "<%%0>"`, `string.gsub, %s, %s, "[%%1]", 2`, "G, %s, %s",
			} {
				args := fmt.Sprintf(call, S, P)
				fmt.Fprintf(&script, "C(%s, %s)\n", luaQuote(label+" "+args[:strings.Index(args, ",")]), args)
			}
		}
	}
	compareWithReference(t, script.String())
}

// compareWithReference runs script (after matrixPrelude) in reference
// Lua 5.1 and in a state with this package's functions, and requires the
// same output line by line. Without lua5.1 it skips, except in CI.
func compareWithReference(t *testing.T, script string) {
	t.Helper()
	ref, err := exec.LookPath("lua5.1")
	if err != nil {
		if os.Getenv("CI") != "" {
			t.Fatal("lua5.1 is not installed: CI must install it (.ci/run)")
		}
		t.Skip("lua5.1 is not installed (apt-get install lua5.1)")
	}
	script = matrixPrelude + script
	cmd := exec.Command(ref, "-")
	cmd.Stdin = strings.NewReader(script)
	want, err := cmd.Output()
	require.NoError(t, err)

	var got bytes.Buffer
	L := newBounded(t, Limits{})
	L.SetGlobal("print", L.NewFunction(func(L *lua.LState) int {
		got.WriteString(L.CheckString(1))
		got.WriteByte('\n')
		return 0
	}))
	require.NoError(t, L.DoString(script))
	wantLines, gotLines := strings.Split(string(want), "\n"), strings.Split(got.String(), "\n")
	require.Equal(t, len(wantLines), len(gotLines))
	for i := range wantLines {
		assert.Equal(t, wantLines[i], gotLines[i], "line %d", i+1)
	}
}

// luaQuote returns s as a Lua string literal with decimal escapes for
// everything but printable ASCII.
func luaQuote(s string) string {
	var b strings.Builder
	b.WriteByte('"')
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c < 32 || c > 126 || c == '"' || c == '\\' {
			fmt.Fprintf(&b, "\\%03d", c)
		} else {
			b.WriteByte(c)
		}
	}
	b.WriteByte('"')
	return b.String()
}
