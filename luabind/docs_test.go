package luabind

import (
	"bufio"
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/luahost/luahost/runtime"
)

// docExample is one ```lua block of docs/lua-api.md.
type docExample struct {
	line int    // line of the opening fence
	code string // the block's text
	file string // "scripts/NAME.lua" when the block starts with that comment
	// reload is true for "-- scripts/NAME.lua, version 2": a new version
	// of file, reloaded into a run of the first after the second frame.
	reload bool
	// out and log are the expected output, from a ```text block after an
	// "Output:" line (what print wrote) or a "Log:" line (what ctx.log and
	// the error reports wrote); has* says whether the doc shows one.
	out, log       string
	hasOut, hasLog bool
}

var docFileRE = regexp.MustCompile(`^-- (scripts/[A-Za-z0-9_/-]+\.lua)(, version 2)?\n`)

// readDocExamples extracts the fenced Lua blocks of a Markdown file, with
// the output shown after each.
func readDocExamples(t *testing.T, path string) []docExample {
	t.Helper()
	f, err := os.Open(path)
	require.NoError(t, err)
	defer f.Close()
	var lines []string
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		lines = append(lines, sc.Text())
	}
	require.NoError(t, sc.Err())

	fence := func(i int, lang string) (string, int) {
		var b strings.Builder
		for j := i + 1; j < len(lines); j++ {
			if lines[j] == "```" {
				return b.String(), j
			}
			b.WriteString(lines[j])
			b.WriteByte('\n')
		}
		t.Fatalf("%s:%d: unclosed ```%s block", path, i+1, lang)
		return "", 0
	}
	var out []docExample
	for i := 0; i < len(lines); i++ {
		if lines[i] != "```lua" {
			continue
		}
		ex := docExample{line: i + 1}
		ex.code, i = fence(i, "lua")
		if m := docFileRE.FindStringSubmatch(ex.code); m != nil {
			ex.file, ex.reload = m[1], m[2] != ""
		}
		for {
			j := i + 1
			for j < len(lines) && strings.TrimSpace(lines[j]) == "" {
				j++
			}
			if j+2 >= len(lines) || (lines[j] != "Output:" && lines[j] != "Log:") {
				break
			}
			k := j + 1
			for k < len(lines) && strings.TrimSpace(lines[k]) == "" {
				k++
			}
			require.Equal(t, "```text", lines[k], "%s:%d: %s wants a ```text block", path, j+1, lines[j])
			text, end := fence(k, "text")
			if lines[j] == "Output:" {
				ex.out, ex.hasOut = text, true
			} else {
				ex.log, ex.hasLog = text, true
			}
			i = end
		}
		out = append(out, ex)
	}
	return out
}

// TestDocs runs every ```lua example of docs/lua-api.md. Blocks that start
// with "-- scripts/NAME.lua" are files of the script directory (modules
// under scripts/lib/); every other block is a snippet, run once in the
// first frame's onUpdate (self, ctx and dt in scope; its line numbers are
// kept). A block that starts with "-- scripts/NAME.lua, version 2" is
// hot-reloaded into a run of NAME after the second frame. Each script or
// snippet is attached to the entity "hero" beside an
// entity "chest" (at 0, 1, 0; the blackboard holds difficulty = 2), runs
// three frames of dt 0.5, and the host closes. It must run without error,
// and print (and log) exactly what the doc shows after it.
func TestDocs(t *testing.T) {
	examples := readDocExamples(t, "../docs/lua-api.md")
	require.NotEmpty(t, examples)
	files := map[string]string{}
	for _, ex := range examples {
		if ex.file != "" && !ex.reload {
			require.NotContains(t, files, ex.file, "line %d: %s shown twice", ex.line, ex.file)
			files[ex.file] = ex.code
		}
	}
	for _, ex := range examples {
		if strings.HasPrefix(ex.file, "scripts/lib/") {
			require.False(t, ex.hasOut || ex.hasLog, "line %d: a module is not run; show its output under a script", ex.line)
			continue
		}
		name := fmt.Sprintf("line%d", ex.line)
		if ex.file != "" {
			name += "_" + strings.TrimSuffix(strings.TrimPrefix(ex.file, "scripts/"), ".lua")
		}
		if ex.reload {
			require.Contains(t, files, ex.file, "line %d: version 2 of a script not shown before", ex.line)
		}
		t.Run(name, func(t *testing.T) { runDocExample(t, ex, files) })
	}
}

var reloadNotice = regexp.MustCompile(`(?m)^reloaded \S+: \d+ instances migrated in \S+\n`)

func runDocExample(t *testing.T, ex docExample, files map[string]string) {
	dir := t.TempDir()
	for file, code := range files {
		path := filepath.Join(dir, filepath.FromSlash(file))
		require.NoError(t, os.MkdirAll(filepath.Dir(path), 0o755))
		require.NoError(t, os.WriteFile(path, []byte(code), 0o644))
	}
	script := strings.TrimSuffix(strings.TrimPrefix(ex.file, "scripts/"), ".lua")
	require.NoError(t, os.MkdirAll(filepath.Join(dir, "scripts"), 0o755))
	if ex.file == "" {
		// The wrapper shares the snippet's first line, so that the
		// snippet's line numbers are the file's.
		script = "example"
		src := "return { onUpdate = function(self, ctx, dt) if ctx.frame ~= 1 then return end " + ex.code + "end }\n"
		require.NoError(t, os.WriteFile(filepath.Join(dir, "scripts", "example.lua"), []byte(src), 0o644))
	}
	t.Chdir(dir)

	var out, log bytes.Buffer
	rt := runtime.New(runtime.Options{Seed: 42, OnError: runtime.Writer(&log)})
	// The examples show the work budget's stops; the wall-clock backstop,
	// which the 10M-instruction loop of one could reach first under the
	// race detector on a loaded machine, is none of them.
	h, err := New(rt, Options{Dir: "scripts", Stdout: &out, Log: &log, WallClock: -1})
	require.NoError(t, err)
	defer h.Close()
	require.NoError(t, rt.Blackboard().Set("difficulty", 2))
	hero, chest := rt.Spawn(), rt.Spawn()
	require.NoError(t, rt.SetName(hero, "hero"))
	require.NoError(t, rt.SetName(chest, "chest"))
	require.NoError(t, rt.Set(chest, runtime.Position, runtime.Vec3{Y: 1}))
	_, err = h.Attach(hero, script, nil)
	require.NoError(t, err, "line %d", ex.line)
	require.NoError(t, rt.Activate(hero))
	require.NoError(t, rt.Activate(chest))
	for frame := 1; frame <= 3; frame++ {
		if frame == 3 && ex.reload {
			require.NoError(t, h.Reload(script, []byte(ex.code)), "line %d", ex.line)
		}
		require.NoError(t, rt.Step(0.5))
	}
	require.NoError(t, h.Close())
	// Reload notices carry a duration; they are not part of the example.
	logged := reloadNotice.ReplaceAllString(log.String(), "")

	if ex.hasOut {
		assert.Equal(t, ex.out, out.String(), "docs/lua-api.md:%d: the output shown", ex.line)
	} else if out.Len() > 0 {
		t.Logf("printed:\n%s", out.String())
	}
	if ex.hasLog {
		assert.Equal(t, ex.log, logged, "docs/lua-api.md:%d: the log shown", ex.line)
	} else {
		assert.Empty(t, logged, "docs/lua-api.md:%d: runs without error", ex.line)
	}
}
