package main

import (
	"encoding/json"
	"fmt"
	"io"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/luahost/luahost/internal/scene"
	"github.com/luahost/luahost/luabind"
	"github.com/luahost/luahost/runtime"
)

// cmdCheck implements "luahost check PATH..." (SPEC 8), a linter. PATH is
// a script, a folder of scripts, a scene file, or a project folder (a
// folder with scene files: every scene in it and the script folder each
// names). Every script is compiled and loaded (its top-level code runs in
// the sandbox, under the budget) and read for misspelt script-table
// fields, undefined and accidental globals and timers naming missing
// functions; every scene for bad JSON, transforms that are not three
// numbers, missing scripts and props the script does not declare or of
// another type. Problems go to stdout as "path:line:col: severity:
// message" (--format json: one JSON array), the count to stderr. Exit 1
// on an error (or, with --strict, a warning), 2 on bad usage, else 0.
func cmdCheck(args []string, stdout, stderr io.Writer) int {
	flags := newFlagSet("check", "luahost check PATH...", stderr)
	budget := flags.Duration("budget", luabind.DefaultBudget, "time budget of each script's top-level code (0: no budget)")
	format := flags.String("format", "text", "output format: text or json")
	strict := flags.Bool("strict", false, "exit 1 on warnings too")
	paths, err := parseFlags(flags, args, stdout)
	if err != nil {
		return usageStatus(err)
	}
	bad := func(format string, a ...any) int {
		fmt.Fprintf(stderr, "luahost check: %s\n", fmt.Sprintf(format, a...))
		return exitUsage
	}
	switch {
	case len(paths) == 0:
		fmt.Fprintln(stderr, "luahost check: no PATH given")
		flags.Usage()
		return exitUsage
	case *format != "text" && *format != "json":
		return bad("--format must be text or json, not %q", *format)
	}
	c := newChecker(cliBudget(*budget))
	defer c.close()
	for _, p := range paths {
		if err := c.add(p); err != nil {
			return bad("%v", err)
		}
	}
	c.run()
	slices.SortStableFunc(c.problems, func(a, b problem) int {
		if a.Path != b.Path {
			return strings.Compare(a.Path, b.Path)
		}
		if a.Line != b.Line {
			return a.Line - b.Line
		}
		return a.Col - b.Col
	})
	errs, warns := 0, 0
	for _, p := range c.problems {
		if p.Severity == sevError {
			errs++
		} else {
			warns++
		}
	}
	if *format == "json" {
		out, _ := json.MarshalIndent(append([]problem{}, c.problems...), "", "  ")
		fmt.Fprintf(stdout, "%s\n", out)
	} else {
		for _, p := range c.problems {
			fmt.Fprintln(stdout, p)
		}
	}
	fmt.Fprintf(stderr, "checked %d %s and %d %s: %d %s, %d %s\n",
		len(c.files), plural(len(c.files), "script", "scripts"), c.scenes, plural(c.scenes, "scene", "scenes"),
		errs, plural(errs, "error", "errors"), warns, plural(warns, "warning", "warnings"))
	if errs > 0 || (*strict && warns > 0) {
		return exitErrors
	}
	return exitOK
}

// checker collects the files to check and what checking them found.
type checker struct {
	budget  time.Duration
	hosts   map[string]*luabind.Host
	globals []string
	files   map[string]string // OS path of a .lua file -> its script directory
	// zoned are the script directories of scenes with a zones field.
	zoned    map[string]bool
	scenes   int
	problems []problem
}

func newChecker(budget time.Duration) *checker {
	return &checker{budget: budget, hosts: map[string]*luabind.Host{}, files: map[string]string{}, zoned: map[string]bool{}}
}

func (c *checker) close() {
	for _, h := range c.hosts {
		_ = h.Close()
	}
}

// host returns the host whose script directory is dir.
func (c *checker) host(dir string) (*luabind.Host, error) {
	if h := c.hosts[dir]; h != nil {
		return h, nil
	}
	h, err := luabind.New(runtime.New(runtime.Options{OnError: runtime.Discard}), luabind.Options{Dir: dir, Budget: c.budget, Stdout: io.Discard, Log: io.Discard})
	if err != nil {
		return nil, err
	}
	c.hosts[dir] = h
	if c.globals == nil {
		c.globals = h.GlobalNames()
	}
	return h, nil
}

// add takes one PATH of the command line: a .lua file, a scene (any
// other file), a project folder (one with scene files in it) or a folder
// of scripts.
func (c *checker) add(p string) error {
	info, err := os.Stat(p)
	if err != nil {
		return err
	}
	if !info.IsDir() {
		if !info.Mode().IsRegular() {
			return fmt.Errorf("%s: not a regular file", p)
		}
		if strings.HasSuffix(p, ".lua") {
			c.files[p] = scriptDirOf(p, filepath.Dir(p))
			return nil
		}
		if data, err := scene.Read(p); err == nil && isSnapshot(data) {
			return c.addSnapshot(p, data)
		}
		return c.addScene(p)
	}
	scenes, _ := filepath.Glob(filepath.Join(p, "*.json"))
	var found bool
	for _, s := range scenes {
		if isScene(s) {
			found = true
			if err := c.addScene(s); err != nil {
				return err
			}
		}
	}
	if found {
		return nil
	}
	return c.addDir(p, "")
}

// isScene reports whether a .json file is a scene: an object with
// "entities" or "scripts", and not a saved world.
func isScene(path string) bool {
	data, err := scene.Read(path)
	if err != nil {
		return false
	}
	if isSnapshot(data) {
		return false
	}
	var probe map[string]json.RawMessage
	if json.Unmarshal(data, &probe) != nil {
		return true // a broken scene is still a scene to report
	}
	_, e := probe["entities"]
	_, s := probe["scripts"]
	return e || s
}

// addScene lints a scene file and adds its script directory.
func (c *checker) addScene(path string) error {
	data, err := scene.Read(path)
	if err != nil {
		return err
	}
	c.scenes++
	res := lintScene(filepath.ToSlash(path), data, func(dir, name string) (any, error) {
		h, err := c.host(dir)
		if err != nil {
			return nil, err
		}
		s, err := h.Load(name)
		if err != nil {
			if _, statErr := os.Stat(filepath.Join(dir, filepath.FromSlash(name)+".lua")); statErr == nil {
				// The script's own check reports why it does not load.
				return nil, errUnchecked
			}
			return nil, err
		}
		return s.Properties(), nil
	})
	c.problems = append(c.problems, res.problems...)
	if res.dir == "" {
		return nil
	}
	if info, err := os.Stat(res.dir); err != nil || !info.IsDir() {
		return nil // the scene's problems say so
	}
	if sc, err := scene.ParseLax(path, data); err == nil && sc.Zones != nil {
		c.zoned[res.dir] = true
	}
	return c.addDir(res.dir, res.dir)
}

// addDir adds every .lua file under root (dot files and folders
// skipped). With dir set, they are scripts of that script directory;
// otherwise each file's directory is the deepest between its own folder
// and root from which its requires resolve.
func (c *checker) addDir(root, dir string) error {
	return filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if strings.HasPrefix(d.Name(), ".") && path != root {
			if d.IsDir() {
				return filepath.SkipDir
			}
			return nil
		}
		if d.IsDir() || !strings.HasSuffix(d.Name(), ".lua") {
			return nil
		}
		if _, ok := c.files[path]; ok && dir == "" {
			return nil
		}
		if dir != "" {
			c.files[path] = dir
		} else {
			c.files[path] = scriptDirOf(path, root)
		}
		return nil
	})
}

// scriptDirOf returns the script directory of the file at path: its
// own folder or the nearest folder above it, up to root, from which every
// module it requires by a literal name is found; root when none is.
func scriptDirOf(path, root string) string {
	src, err := readRegular(path)
	if err != nil {
		return root
	}
	f, ok := parseLua(path, src)
	if !ok {
		return root
	}
	reqs := f.requires()
	rootAbs, _ := filepath.Abs(root)
	for dir := filepath.Dir(path); ; dir = filepath.Dir(dir) {
		if slices.IndexFunc(reqs, func(m string) bool { return !moduleExists(dir, m) }) < 0 {
			return dir
		}
		abs, _ := filepath.Abs(dir)
		if abs == rootAbs || filepath.Dir(dir) == dir || len(abs) < len(rootAbs) {
			return root
		}
	}
}

// readRegular reads a regular file; a link or a device is not read
// (luabind refuses to load it, and check reports that).
func readRegular(path string) ([]byte, error) {
	info, err := os.Lstat(path)
	if err != nil {
		return nil, err
	}
	if !info.Mode().IsRegular() {
		return nil, fmt.Errorf("%s: not a regular file", path)
	}
	return os.ReadFile(path)
}

// moduleExists reports whether require(m) finds a file from dir.
func moduleExists(dir, m string) bool {
	base := filepath.Join(dir, filepath.FromSlash(strings.ReplaceAll(m, ".", "/")))
	for _, p := range []string{base + ".lua", filepath.Join(base, "init.lua")} {
		if _, err := os.Stat(p); err == nil {
			return true
		}
	}
	return false
}

// run checks every file added: modules (files another file requires)
// are loaded as modules, whose chunk may return anything, and read for
// globals; scripts are loaded as scripts and linted in full.
func (c *checker) run() {
	type target struct {
		path, dir, name string
		module          bool
		src             []byte
		lua             *luaFile
	}
	var targets []*target
	modules := map[string]bool{}
	for _, path := range slices.Sorted(maps.Keys(c.files)) {
		dir := c.files[path]
		rel, err := filepath.Rel(dir, path)
		if err != nil {
			rel = filepath.Base(path)
		}
		t := &target{path: path, dir: dir, name: filepath.ToSlash(strings.TrimSuffix(rel, ".lua"))}
		t.src, _ = readRegular(path)
		file := filepath.ToSlash(filepath.Join(dir, filepath.FromSlash(t.name)+".lua"))
		t.lua, _ = parseLua(file, t.src)
		if t.lua != nil {
			for _, m := range t.lua.requires() {
				base := filepath.Join(dir, filepath.FromSlash(strings.ReplaceAll(m, ".", "/")))
				modules[filepath.Clean(base+".lua")] = true
				modules[filepath.Join(base, "init.lua")] = true
			}
		}
		targets = append(targets, t)
	}
	for _, t := range targets {
		t.module = modules[filepath.Clean(t.path)]
		h, err := c.host(t.dir)
		if err != nil {
			c.problems = append(c.problems, problem{Path: filepath.ToSlash(t.path), Line: 1, Col: 1, Severity: sevError, Message: err.Error()})
			continue
		}
		check := h.Check
		if t.module {
			check = h.CheckModule
		}
		if err := check(t.name); err != nil {
			c.problems = append(c.problems, loadProblem(filepath.ToSlash(t.path), err))
			continue
		}
		if t.lua == nil {
			continue
		}
		if t.module {
			c.problems = append(c.problems, t.lua.lintGlobals(c.globals)...)
			c.problems = append(c.problems, t.lua.lintModuleState()...)
		} else {
			c.problems = append(c.problems, t.lua.lintScript(c.globals)...)
			if c.zoned[t.dir] {
				c.problems = append(c.problems, t.lua.lintZoneValues()...)
			}
		}
	}
}

// loadLineRE reads "file:line: message" from a load error.
var loadLineRE = regexp.MustCompile(`^(.*?\.lua):(\d+): (.*)$`)

// loadProblem turns a load error ("file:line: message" or "file:
// message") into an error problem.
func loadProblem(path string, err error) problem {
	msg := strings.ReplaceAll(err.Error(), "\n", " ")
	if m := loadLineRE.FindStringSubmatch(msg); m != nil {
		line, _ := strconv.Atoi(m[2])
		return problem{Path: m[1], Line: line, Col: 1, Severity: sevError, Message: m[3]}
	}
	if i := strings.Index(msg, ".lua: "); i >= 0 {
		return problem{Path: msg[:i+4], Line: 1, Col: 1, Severity: sevError, Message: msg[i+6:]}
	}
	return problem{Path: path, Line: 1, Col: 1, Severity: sevError, Message: msg}
}

// cliCeiling maps the CLI's --memory-ceiling in MiB (0: the default,
// negative: off) to luabind's MemoryCeiling in bytes.
func cliCeiling(mib int64) int64 {
	if mib < 0 {
		return -1
	}
	return mib << 20
}

// cliBudget maps the CLI's budget (0: off) to luabind's (negative: off).
func cliBudget(d time.Duration) time.Duration {
	if d <= 0 {
		return -1
	}
	return d
}

func plural(n int, one, many string) string {
	if n == 1 {
		return one
	}
	return many
}
