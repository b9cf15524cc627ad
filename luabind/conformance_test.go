package luabind

import (
	"bytes"
	"errors"
	"fmt"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/luahost/luahost/runtime"
)

// The differential conformance suite. Every program directly
// under conformanceDir runs twice: as a module in luahost's sandbox,
// through a real Host with print captured, and in reference Lua 5.1
// (Debian's lua5.1). The two outputs must be identical, line by line.
//
// Each line a program prints is one check; its first tab-separated field
// is the check's label. A program that fails ends its output with a line
// "error<TAB>message" in both runners. Modules the programs require live
// in subfolders (lib/), which are not programs themselves.
const conformanceDir = "testdata/conformance"

// knownDifferences are the checks where luahost knowingly differs from
// Lua 5.1, keyed "file.lua: label", each with the reason. The list must
// not grow (TestConformanceKnownDifferencesBounded) and an entry whose
// check no longer differs must be removed (TestConformance fails on it).
var knownDifferences = map[string]string{
	// gopher-lua's arithmetic instruction stores every whole result from
	// 0 to 127 of +, -, *, / as one shared boxed value, so -0 becomes 0
	// where it is stored; correcting it would put a Go call in every
	// arithmetic operation of every script. Constant expressions agree
	// (arith_zero_constants.lua).
	"arith_negative_zero.lua: mul": "-0 from * becomes 0",
	"arith_negative_zero.lua: div": "-0 from / becomes 0",
	"arith_negative_zero.lua: add": "-0 from + becomes 0",
	// # of a table with holes is any border; Lua 5.1's depends on the
	// size its array part got when the table last grew, which gopher-lua
	// does not keep. luahost takes the size the keys the table holds now
	// would give, so an array emptied past half after it grew differs.
	"len_shapes.lua: thinned past half": "t[1..10] written, then the odd ones removed: 0 where Lua 5.1 gives 10",
	// gopher-lua has no weak references: a table's __mode is kept but
	// its entries stay until removed.
	"weak_tables.lua: unreferenced key collected": "weak entries are never collected",
}

// deliberateDifferences are the checks where luahost differs from Lua
// 5.1 on purpose, keyed as knownDifferences, each with the reason; the
// Lua API guide lists each of them (its fidelity notes). An entry whose
// check no longer differs must be removed, as a known difference must.
var deliberateDifferences = map[string]string{
	"syntax_statements.lua: goto is a name":        "goto and labels are accepted, as gopher-lua compiles them, so goto is a reserved word",
	"pattern_balance.lua: gsub":                    "a malformed pattern is refused when it is read, even where matching never reaches the bad item",
	"deliberate_runtime_wording.lua: index local":  "runtime errors are worded as in Lua 5.4, naming the value",
	"deliberate_runtime_wording.lua: index global": "runtime errors are worded as in Lua 5.4, naming the value",
	"deliberate_runtime_wording.lua: index field":  "runtime errors are worded as in Lua 5.4, naming the value",
	"deliberate_runtime_wording.lua: call method":  "runtime errors are worded as in Lua 5.4, naming the value",
	"deliberate_runtime_wording.lua: arith field":  "runtime errors are worded as in Lua 5.4, naming the value",
	"deliberate_runtime_wording.lua: concat local": "runtime errors are worded as in Lua 5.4, naming the value",
	"deliberate_runtime_wording.lua: mod local":    "runtime errors are worded as in Lua 5.4, naming the value",
	"deliberate_runtime_wording.lua: mod field":    "runtime errors are worded as in Lua 5.4, naming the value",
}

// maxKnownDifferences is the size the list of known differences may not
// exceed: lower it whenever an entry is removed.
const maxKnownDifferences = 5

// referenceLua is the reference interpreter's command.
const referenceLua = "lua5.1"

// TestConformance runs every conformance program in luahost and in
// reference Lua 5.1 and requires identical output, apart from the known
// differences. Without lua5.1 it skips, except in CI, where it fails.
func TestConformance(t *testing.T) {
	ref, err := exec.LookPath(referenceLua)
	if err != nil {
		if os.Getenv("CI") != "" {
			t.Fatalf("%s is not installed: CI must install it (.ci/run)", referenceLua)
		}
		t.Skipf("%s is not installed (apt-get install lua5.1): the differential suite needs it", referenceLua)
	}
	files := conformancePrograms(t)
	require.NotEmpty(t, files, "no programs in %s", conformanceDir)
	used, ran := make(map[string]bool), make(map[string]bool)
	for _, file := range files {
		t.Run(strings.TrimSuffix(file, ".lua"), func(t *testing.T) {
			ran[file] = true
			want := runReference(t, ref, file)
			got := runSandboxed(t, file)
			for _, key := range compareOutputs(t, file, want, got) {
				used[key] = true
			}
		})
	}
	for key, reason := range accepted() {
		file, _, _ := strings.Cut(key, ": ")
		if !slices.Contains(files, file) {
			t.Errorf("known difference %q (%s) names a program that does not exist", key, reason)
			continue
		}
		if ran[file] && !used[key] && !t.Failed() {
			t.Errorf("difference %q (%s) no longer differs: remove it (and lower maxKnownDifferences for a known one)", key, reason)
		}
	}
}

// accepted returns the known and the deliberate differences together.
func accepted() map[string]string {
	all := maps.Clone(knownDifferences)
	maps.Copy(all, deliberateDifferences)
	return all
}

// TestConformanceKnownDifferencesBounded keeps the list of known
// differences from growing.
func TestConformanceKnownDifferencesBounded(t *testing.T) {
	assert.LessOrEqual(t, len(knownDifferences), maxKnownDifferences,
		"knownDifferences must not grow: fix the difference instead")
	for key, reason := range accepted() {
		assert.Regexp(t, `^[a-z0-9_]+\.lua: \S`, key, "a known difference is keyed \"file.lua: label\"")
		assert.NotEmpty(t, reason, "known difference %q needs its reason", key)
	}
}

// conformancePrograms lists the programs: the .lua files directly under
// conformanceDir, sorted.
func conformancePrograms(t *testing.T) []string {
	t.Helper()
	entries, err := os.ReadDir(conformanceDir)
	require.NoError(t, err)
	var files []string
	for _, e := range entries {
		if !e.IsDir() && strings.HasSuffix(e.Name(), ".lua") {
			files = append(files, e.Name())
		}
	}
	return files
}

// runReference runs file in reference Lua from the package directory, so
// that chunk names ("testdata/conformance/x.lua") match luahost's, with
// modules found under conformanceDir as luahost's require finds them.
func runReference(t *testing.T, ref, file string) []string {
	t.Helper()
	cmd := exec.Command(ref, filepath.ToSlash(filepath.Join(conformanceDir, file)))
	cmd.Env = append(os.Environ(),
		"LUA_PATH="+conformanceDir+"/?.lua;"+conformanceDir+"/?/init.lua",
		"LUA_CPATH=",
		"LUA_INIT=")
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	err := cmd.Run()
	lines := splitLines(stdout.String())
	if err != nil {
		var exit *exec.ExitError
		require.True(t, errors.As(err, &exit), "running %s: %v", referenceLua, err)
		msg, _, _ := strings.Cut(stderr.String(), "\n")
		lines = append(lines, "error\t"+strings.TrimPrefix(msg, ref+": "))
	}
	return lines
}

// runSandboxed runs file as a module through a real Host on
// conformanceDir and returns what it printed.
func runSandboxed(t *testing.T, file string) []string {
	t.Helper()
	var out bytes.Buffer
	rt := runtime.New(runtime.Options{Seed: 1})
	h, err := New(rt, Options{Dir: conformanceDir, Stdout: &out, Log: &out, Budget: 20 * time.Second, MemoryLimit: -1,
		// The programs are about Lua's semantics, not limits: a sort of
		// 300,000 elements under the race detector on a busy machine takes
		// longer than the default backstop.
		WallClock: -1})
	require.NoError(t, err)
	defer func() { _ = h.Close() }()
	err = h.CheckModule(strings.TrimSuffix(file, ".lua"))
	h.Flush()
	lines := splitLines(out.String())
	if err != nil {
		msg, _, _ := strings.Cut(err.Error(), "\n")
		lines = append(lines, "error\t"+msg)
	}
	return lines
}

func splitLines(s string) []string {
	s = strings.TrimSuffix(s, "\n")
	if s == "" {
		return nil
	}
	return strings.Split(s, "\n")
}

// compareOutputs checks got against want line by line and returns the
// known differences it met. A differing line is accepted only when its
// check is a known difference; a missing or extra line never is.
func compareOutputs(t *testing.T, file string, want, got []string) []string {
	t.Helper()
	var met []string
	for i := range max(len(want), len(got)) {
		var w, g string
		if i < len(want) {
			w = want[i]
		}
		if i < len(got) {
			g = got[i]
		}
		if w == g {
			continue
		}
		label, _, _ := strings.Cut(w, "\t")
		key := fmt.Sprintf("%s: %s", file, label)
		if _, ok := accepted()[key]; ok && i < len(want) && i < len(got) {
			met = append(met, key)
			continue
		}
		assert.Failf(t, "output differs from Lua 5.1",
			"%s line %d (check %q):\nlua5.1:  %q\nluahost: %q", file, i+1, label, w, g)
	}
	return met
}

// TestConformanceDocumented keeps the Lua API guide's fidelity notes in
// step with the suite: it names the program of every known and
// deliberate difference, and gives the number of programs.
func TestConformanceDocumented(t *testing.T) {
	doc, err := os.ReadFile("../docs/lua-api.md")
	require.NoError(t, err)
	for key := range accepted() {
		file, _, _ := strings.Cut(key, ": ")
		assert.True(t, strings.Contains(string(doc), "`"+file+"`"), "the guide's fidelity notes must name %s", file)
	}
	n := len(conformancePrograms(t))
	assert.True(t, strings.Contains(string(doc), fmt.Sprintf("suite holds luahost to this: %d Lua programs", n)),
		"the guide must give the number of programs (%d)", n)
}
