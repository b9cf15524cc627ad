// Package luahost_test keeps the README and the documents under docs/
// true: the README's first program is Example, its first script runs as
// shown, and every Go block of a document is code of an Example function.
package luahost_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"log"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"testing/fstest"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/luahost/luahost/luabind"
	"github.com/luahost/luahost/runtime"
)

// Example is the README's "embedder's first program": a spinner from the
// example scripts turns once in 8 seconds of frames, a Go observer hears
// an event, and the host's shutdown runs the spinner's onDestroy.
func Example() {
	rt := runtime.New(runtime.Options{Seed: 1})
	host, err := luabind.New(rt, luabind.Options{Dir: "scripts", Budget: 100 * time.Millisecond})
	if err != nil {
		log.Fatal(err)
	}
	defer host.Close() // every instance gets its onDestroy, then the Lua states close

	e := rt.Spawn() // Pending
	if _, err := host.Attach(e, "spinner", map[string]any{"speed": 45}); err != nil {
		log.Fatal(err) // the script did not load: file:line in the message
	}
	if err := rt.Activate(e); err != nil {
		log.Fatal(err)
	}
	rt.Events().Observe("damage", func(ev *runtime.Event) any {
		fmt.Println("damage:", runtime.FormatPlain(ev.Data))
		return ev.Last
	}, runtime.ObserveOptions{})
	err = host.Register("giveXP", func(inst *runtime.Instance, args []any) (any, error) {
		return nil, nil // scripts call giveXP(...) with plain data
	})
	if err != nil {
		log.Fatal(err)
	}
	stop, err := host.Watch(context.Background()) // hot reload from disk
	if err != nil {
		log.Fatal(err)
	}
	defer stop()
	for range 8 * 60 { // 8 seconds at 60 frames a second
		if err := rt.Step(1.0 / 60); err != nil {
			log.Fatal(err)
		}
	}
	if _, err := rt.Events().Notify("damage", map[string]any{"amount": 3}, -1); err != nil {
		log.Fatal(err)
	}
	// Output:
	// [frame 480] entity(1:1): completes turn 1
	// damage: {amount=3}
	// [frame 480] entity(1:1): stops spinning after 1 turns
}

// docFiles are the documents whose blocks the tests check.
func docFiles(t *testing.T) []string {
	t.Helper()
	docs, err := filepath.Glob("docs/*.md")
	require.NoError(t, err)
	require.NotEmpty(t, docs)
	return append([]string{"README.md", "CHANGELOG.md", "scripts/README.md"}, docs...)
}

// block is one fenced block of a Markdown file.
type block struct {
	line int    // line of the opening fence
	lang string // the word after the fence
	text string // the block's lines, each ending in a newline
}

// readBlocks returns the fenced blocks of a Markdown file, in order.
func readBlocks(t *testing.T, path string) []block {
	t.Helper()
	src, err := os.ReadFile(path)
	require.NoError(t, err)
	var (
		out  []block
		cur  *block
		body strings.Builder
	)
	sc := bufio.NewScanner(bytes.NewReader(src))
	for n := 1; sc.Scan(); n++ {
		line := sc.Text()
		switch {
		case cur == nil && strings.HasPrefix(line, "```"):
			cur = &block{line: n, lang: strings.TrimPrefix(line, "```")}
			body.Reset()
		case cur != nil && line == "```":
			cur.text = body.String()
			out = append(out, *cur)
			cur = nil
		case cur != nil:
			body.WriteString(line)
			body.WriteByte('\n')
		}
	}
	require.NoError(t, sc.Err())
	require.Nil(t, cur, "%s: a block is not closed", path)
	return out
}

// exampleBodies returns the body of every Example function in the
// repository's test files, one tab of indentation removed from each line,
// keyed by "path: name".
func exampleBodies(t *testing.T) map[string]string {
	t.Helper()
	bodies := map[string]string{}
	err := filepath.WalkDir(".", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && path != "." && (strings.HasPrefix(d.Name(), ".") || d.Name() == "testdata") {
			return filepath.SkipDir
		}
		if d.IsDir() || !strings.HasSuffix(path, "_test.go") {
			return nil
		}
		src, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		fset := token.NewFileSet()
		f, err := parser.ParseFile(fset, path, src, parser.ParseComments)
		if err != nil {
			return err
		}
		for _, decl := range f.Decls {
			fn, ok := decl.(*ast.FuncDecl)
			if !ok || fn.Recv != nil || fn.Body == nil || !strings.HasPrefix(fn.Name.Name, "Example") {
				continue
			}
			start := fset.Position(fn.Body.Lbrace).Offset + 1
			end := fset.Position(fn.Body.Rbrace).Offset
			var b strings.Builder
			for _, line := range strings.Split(strings.Trim(string(src[start:end]), "\n"), "\n") {
				b.WriteString(strings.TrimPrefix(line, "\t"))
				b.WriteByte('\n')
			}
			bodies[path+": "+fn.Name.Name] = b.String()
		}
		return nil
	})
	require.NoError(t, err)
	return bodies
}

// TestDocsGoFromExamples: every ```go block of the README and of docs/ is
// a run of whole lines of an Example function's body, so that the Go the
// documents show compiles and runs as the examples do.
func TestDocsGoFromExamples(t *testing.T) {
	bodies := exampleBodies(t)
	require.NotEmpty(t, bodies)
	for _, path := range docFiles(t) {
		for _, b := range readBlocks(t, path) {
			if b.lang != "go" {
				continue
			}
			t.Run(fmt.Sprintf("%s:%d", path, b.line), func(t *testing.T) {
				for _, body := range bodies {
					if strings.HasPrefix(body, b.text) || strings.Contains(body, "\n"+b.text) {
						return
					}
				}
				assert.Fail(t, "not the code of an Example function", "%s:%d:\n%s", path, b.line, b.text)
			})
		}
	}
}

// TestReadmeFirstScript runs the README's first script on the README's
// scene for the frames the README names and compares what it prints with
// the output shown.
func TestReadmeFirstScript(t *testing.T) {
	blocks := readBlocks(t, "README.md")
	var script, scene, output *block
	for i := range blocks {
		b := &blocks[i]
		switch {
		case b.lang == "lua" && script == nil:
			script = b
		case b.lang == "json" && scene == nil:
			scene = b
		case b.lang == "text" && script != nil && output == nil:
			output = b
		}
	}
	require.NotNil(t, script, "README.md has no ```lua block")
	require.NotNil(t, scene, "README.md has no ```json block")
	require.NotNil(t, output, "README.md shows no output after its script")
	name := regexp.MustCompile(`^-- ([a-z]+)\.lua\n`).FindStringSubmatch(script.text)
	require.NotNil(t, name, "README.md:%d: the script starts with -- NAME.lua", script.line)

	var sc struct {
		Seed     int64 `json:"seed"`
		Entities []struct {
			Name    string `json:"name"`
			Scripts []struct {
				Script string         `json:"script"`
				Props  map[string]any `json:"props"`
			} `json:"scripts"`
		} `json:"entities"`
	}
	require.NoError(t, json.Unmarshal([]byte(scene.text), &sc))
	readme, err := os.ReadFile("README.md")
	require.NoError(t, err)
	frames := regexp.MustCompile(`luahost run scene\.json --frames (\d+)`).FindSubmatch(readme)
	require.NotNil(t, frames, "README.md names the frames the scene runs")

	var out bytes.Buffer
	rt := runtime.New(runtime.Options{Seed: sc.Seed})
	host, err := luabind.New(rt, luabind.Options{
		FS:     fstest.MapFS{name[1] + ".lua": {Data: []byte(script.text)}},
		Stdout: &out,
	})
	require.NoError(t, err)
	for _, ent := range sc.Entities {
		e := rt.Spawn()
		require.NoError(t, rt.SetName(e, ent.Name))
		for _, s := range ent.Scripts {
			_, err := host.Attach(e, s.Script, s.Props)
			require.NoError(t, err)
		}
		require.NoError(t, rt.Activate(e))
	}
	var n int
	_, err = fmt.Sscan(string(frames[1]), &n)
	require.NoError(t, err)
	for range n {
		require.NoError(t, rt.Step(1.0/60))
	}
	require.NoError(t, host.Close())
	assert.Equal(t, output.text, out.String(), "README.md:%d: the output shown", output.line)
}

// TestDocsLinks: every relative link of the README and of docs/ names a
// file of the repository.
func TestDocsLinks(t *testing.T) {
	link := regexp.MustCompile(`\]\(([^)#:]+)(#[^)]*)?\)`)
	for _, path := range docFiles(t) {
		src, err := os.ReadFile(path)
		require.NoError(t, err)
		for _, m := range link.FindAllStringSubmatch(string(src), -1) {
			target := filepath.Join(filepath.Dir(path), m[1])
			_, err := os.Stat(target)
			assert.NoError(t, err, "%s: link to %s", path, m[1])
		}
	}
}

// TestDocsCiteNothingOutside: the documents state their contracts in
// their own words; none cites numbered sections of a document that is
// not in the repository.
func TestDocsCiteNothingOutside(t *testing.T) {
	cite := regexp.MustCompile(`SPEC \d`)
	for _, path := range docFiles(t) {
		src, err := os.ReadFile(path)
		require.NoError(t, err)
		assert.Empty(t, cite.FindAllString(string(src), -1), "%s cites sections outside the repository", path)
	}
}

// TestCodeCitesNothingOutside: neither do the comments of the code, the
// scripts and the test data.
func TestCodeCitesNothingOutside(t *testing.T) {
	cite := regexp.MustCompile(`SPEC \d`)
	var checked int
	require.NoError(t, filepath.WalkDir(".", func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.IsDir() && strings.HasPrefix(d.Name(), ".") && path != "." {
			return filepath.SkipDir
		}
		switch filepath.Ext(path) {
		case ".go", ".lua", ".json", ".want", ".js", ".css", ".html":
		default:
			return nil
		}
		if !d.Type().IsRegular() {
			return nil
		}
		src, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		checked++
		assert.Empty(t, cite.FindAllString(string(src), -1), "%s cites sections outside the repository", path)
		return nil
	}))
	assert.Greater(t, checked, 500, "the walk saw the repository")
}
