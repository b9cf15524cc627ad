package lint

import (
	"encoding/json"
	"errors"
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
	"github.com/luahost/luahost/snapshot"
)

// Checker collects the files to check and what checking them found. Every
// script is compiled and loaded (its top-level code runs in the sandbox,
// under the budget) and read for misspelt script-table fields, undefined
// and accidental globals and timers naming missing functions; every scene
// for bad JSON, transforms that are not three numbers, missing scripts and
// props the script does not declare or of another type. Not safe for
// concurrent use.
type Checker struct {
	budget  time.Duration
	hosts   map[string]*luabind.Host
	globals []string
	files   map[string]string // OS path of a .lua file -> its script directory
	// zoned are the script directories of scenes with a zones field.
	zoned    map[string]bool
	scenes   int
	problems []Problem
	// libs are the sandbox's library tables and their members.
	libs map[string][]string
	// names are the event names and tags every file and scene uses.
	names projectNames
}

// New returns a Checker whose hosts give each script's top-level code
// budget (negative: no budget). Close it when done.
func New(budget time.Duration) *Checker {
	return &Checker{budget: budget, hosts: map[string]*luabind.Host{}, files: map[string]string{}, zoned: map[string]bool{}}
}

// Close closes the hosts the checks loaded scripts in.
func (c *Checker) Close() {
	for _, h := range c.hosts {
		_ = h.Close()
	}
}

// host returns the host whose script directory is dir.
func (c *Checker) host(dir string) (*luabind.Host, error) {
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
		c.libs = h.LibraryMembers()
	}
	return h, nil
}

// Add takes one PATH of the command line: a .lua file, a scene (any
// other file), a project folder (one with scene files in it) or a folder
// of scripts.
func (c *Checker) Add(p string) error {
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
		if data, err := scene.Read(p); err == nil && scene.IsSnapshot(data) {
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
	if scene.IsSnapshot(data) {
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
func (c *Checker) addScene(path string) error {
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
	if sc, err := scene.ParseLax(path, data); err == nil {
		if sc.Zones != nil {
			c.zoned[res.dir] = true
		}
		for _, e := range sc.Entities {
			c.names.tagScene(e.Tags)
			for _, s := range e.Scripts {
				c.names.attached(s.Script, slices.Collect(maps.Keys(s.Props)), false)
			}
		}
	}
	return c.addDir(res.dir, res.dir)
}

// addDir adds every .lua file under root (dot files and folders
// skipped). With dir set, they are scripts of that script directory;
// otherwise each file's directory is the deepest between its own folder
// and root from which its requires resolve.
func (c *Checker) addDir(root, dir string) error {
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

// Run checks every file added and returns the problems found, by path,
// line and column.
func (c *Checker) Run() []Problem {
	c.run()
	slices.SortStableFunc(c.problems, func(a, b Problem) int {
		if a.Path != b.Path {
			return strings.Compare(a.Path, b.Path)
		}
		if a.Line != b.Line {
			return a.Line - b.Line
		}
		return a.Col - b.Col
	})
	return c.problems
}

// Scripts returns how many scripts were added.
func (c *Checker) Scripts() int { return len(c.files) }

// Scenes returns how many scenes were added.
func (c *Checker) Scenes() int { return c.scenes }

// run checks every file added: modules (files another file requires)
// are loaded as modules, whose chunk may return anything, and read for
// globals; scripts are loaded as scripts and linted in full.
func (c *Checker) run() {
	type target struct {
		path, dir, name string
		module          bool
		src             []byte
		lua             *luaFile
	}
	var targets []*target
	modules := map[string]bool{}
	linted := map[string]*target{}
	var checked []*target
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
			c.problems = append(c.problems, Problem{Path: filepath.ToSlash(t.path), Line: 1, Col: 1, Severity: Error, Message: err.Error()})
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
				c.problems = append(c.problems, t.lua.lintZoned()...)
			}
		}
		c.names.collect(t.lua)
		linted[t.lua.path] = t
		checked = append(checked, t)
	}
	// The API checks come last: a script's self may be set by the props
	// of any attach of the project.
	for _, t := range checked {
		props, closed := c.names.attachesOf(t.name)
		c.problems = append(c.problems, t.lua.lintAPI(c.libs, !t.module, props, closed && c.scenes > 0)...)
	}
	// Names used across files are checked in a folder or a project, not
	// in a file checked alone.
	if len(targets) > 1 {
		for _, p := range c.names.check() {
			c.problems = append(c.problems, linted[p.use.path].lua.at(p.use.line, p.use.name, Warning, "%s", p.message))
		}
	}
}

// loadLineRE reads "file:line: message" from a load error.
var loadLineRE = regexp.MustCompile(`^(.*?\.lua):(\d+): (.*)$`)

// loadProblem turns a load error ("file:line: message" or "file:
// message") into an error problem.
func loadProblem(path string, err error) Problem {
	msg := strings.ReplaceAll(err.Error(), "\n", " ")
	if m := loadLineRE.FindStringSubmatch(msg); m != nil {
		line, _ := strconv.Atoi(m[2])
		return Problem{Path: m[1], Line: line, Col: 1, Severity: Error, Message: m[3]}
	}
	if i := strings.Index(msg, ".lua: "); i >= 0 {
		return Problem{Path: msg[:i+4], Line: 1, Col: 1, Severity: Error, Message: msg[i+6:]}
	}
	return Problem{Path: path, Line: 1, Col: 1, Severity: Error, Message: msg}
}

// addSnapshot checks a saved world given to check: that it reads, and
// the scripts of the folder it records. A project folder's
// snapshots are not scenes and are left alone.
func (c *Checker) addSnapshot(path string, data []byte) error {
	snap, err := snapshot.Parse(data)
	if err != nil {
		p := Problem{Path: filepath.ToSlash(path), Line: 1, Col: 1, Severity: Error, Message: err.Error()}
		if te, ok := errors.AsType[*snapshot.TextError](err); ok {
			p.Line, p.Col, p.Message = te.Line, te.Col, "bad snapshot: "+te.Message
		}
		c.problems = append(c.problems, p)
		return nil
	}
	dir := scene.SnapshotScripts(path, snap)
	if info, err := os.Stat(dir); err != nil || !info.IsDir() {
		c.problems = append(c.problems, Problem{Path: filepath.ToSlash(path), Line: 1, Col: 1, Severity: Error, Message: fmt.Sprintf("script directory %s: not found", filepath.ToSlash(dir))})
		return nil
	}
	return c.addDir(dir, dir)
}
