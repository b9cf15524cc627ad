package main

import (
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// corpus is the linter's corpus (testdata/lint/README.md).
var corpus = filepath.Join("..", "..", "testdata", "lint")

// wantRE reads the diagnostics a corpus file expects: "-- want: LINE:COL:
// severity: message", the path being the file's own.
var wantRE = regexp.MustCompile(`(?m)^-- want: (.+)$`)

// TestLintCorpus: every deliberate mistake of the corpus is reported by
// "luahost check", as its file says, and nothing else is; --strict makes
// each one fail the check. A file is checked alone, a project folder as
// one project.
func TestLintCorpus(t *testing.T) {
	entries, err := os.ReadDir(filepath.Join(corpus, "mistakes"))
	require.NoError(t, err)
	for _, e := range entries {
		t.Run(e.Name(), func(t *testing.T) {
			path := filepath.ToSlash(filepath.Join(corpus, "mistakes", e.Name()))
			var files []string
			if e.IsDir() {
				require.NoError(t, filepath.WalkDir(path, func(p string, d fs.DirEntry, err error) error {
					if err == nil && strings.HasSuffix(p, ".lua") {
						files = append(files, p)
					}
					return err
				}))
			} else {
				files = []string{path}
			}
			var want []string
			for _, f := range files {
				src, err := os.ReadFile(f)
				require.NoError(t, err)
				for _, m := range wantRE.FindAllStringSubmatch(string(src), -1) {
					want = append(want, filepath.ToSlash(f)+":"+m[1])
				}
			}
			require.NotEmpty(t, want, "the corpus file says what it wants")
			res := luahostRun(t, "check", path)
			code := 0
			if slices.ContainsFunc(want, func(w string) bool { return strings.Contains(w, ": error: ") }) {
				code = 1
			}
			assert.Equal(t, code, res.code, res.stdout+res.stderr)
			assert.ElementsMatch(t, want, lines(res.stdout))
			strict := luahostRun(t, "check", "--strict", path)
			assert.Equal(t, 1, strict.code, strict.stdout)
		})
	}
}

// TestLintCleanProjects: correct code gives no warning: the corpus's
// clean project, the example world and the scripts of the runtime's tests
// that are not written to fail. (The differential suite's programs, which
// are not scripts, are linted in internal/lint.)
func TestLintCleanProjects(t *testing.T) {
	for _, path := range []string{
		filepath.Join(corpus, "clean"),
		filepath.Join("..", "..", "scripts"),
		filepath.Join("..", "..", "luabind", "testdata", "scripts", "scene"),
		filepath.Join("..", "..", "luabind", "testdata", "scripts", "zone"),
		filepath.Join("..", "..", "luabind", "testdata", "scripts", "debug"),
		filepath.Join("..", "..", "luabind", "testdata", "scripts", "waiting"),
	} {
		t.Run(filepath.ToSlash(path), func(t *testing.T) {
			res := luahostRun(t, "check", "--strict", path)
			assert.Equal(t, 0, res.code, res.stdout+res.stderr)
			assert.Empty(t, res.stdout)
		})
	}
}

func lines(s string) []string {
	s = strings.TrimSuffix(s, "\n")
	if s == "" {
		return nil
	}
	return strings.Split(s, "\n")
}
