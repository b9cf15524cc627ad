package main

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"maps"
	"path/filepath"
	"slices"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/luahost/luahost/internal/files"
	"github.com/luahost/luahost/luabind"
	"github.com/luahost/luahost/runtime"
)

// Scene is a scene file (SPEC 7). Paths are relative to the scene file.
type Scene struct {
	// Scripts is the script directory; default "scripts" beside the scene.
	Scripts *string `json:"scripts"`
	// Seed seeds the scripts' math.random; --seed overrides it.
	Seed *int64 `json:"seed"`
	// Blackboard holds the blackboard's initial values.
	Blackboard map[string]any `json:"blackboard"`
	// Entities are spawned in file order, their scripts attached in
	// listed order.
	Entities []SceneEntity `json:"entities"`
	// Zones places the edges of the world's zones (SPEC 14); only
	// run --zones reads it.
	Zones *SceneZones `json:"zones"`
}

// SceneEntity is one entity of a scene.
type SceneEntity struct {
	Name     string        `json:"name"`
	Position *[3]float64   `json:"position"`
	Rotation *[3]float64   `json:"rotation"`
	Scale    *[3]float64   `json:"scale"`
	Tags     []string      `json:"tags"`
	Scripts  []SceneScript `json:"scripts"`
}

// SceneScript is one script of an entity: "name" or
// {"script": "name", "props": {...}}.
type SceneScript struct {
	Script string         `json:"script"`
	Props  map[string]any `json:"props"`
}

// UnmarshalJSON accepts a bare script name or the object form, strictly.
func (s *SceneScript) UnmarshalJSON(b []byte) error {
	if len(b) > 0 && b[0] == '"' {
		return json.Unmarshal(b, &s.Script)
	}
	type plain SceneScript
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.DisallowUnknownFields()
	if err := dec.Decode((*plain)(s)); err != nil {
		return err
	}
	if s.Script == "" {
		return errors.New(`a script entry needs "script"`)
	}
	return nil
}

// maxSceneSize is the largest scene file read.
const maxSceneSize = 16 << 20

// utf8BOM is the byte order mark some editors put at the start of a file.
var utf8BOM = []byte("\xEF\xBB\xBF")

// readScene reads a scene file, which must be a regular file of at most
// maxSceneSize bytes: a device, a pipe or a directory is refused unread.
func readScene(path string) ([]byte, error) {
	data, err := files.ReadRegular(path, maxSceneSize)
	switch {
	case errors.Is(err, files.ErrNotRegular), errors.Is(err, files.ErrTooLarge):
		return nil, fmt.Errorf("%s: the scene %v", path, err)
	case err != nil:
		return nil, fmt.Errorf("scene: %w", err)
	}
	return data, nil
}

// parseScene decodes a scene strictly. A leading UTF-8 byte order mark is
// skipped. Syntax errors, unknown fields, duplicate keys, nulls, vectors
// that are not three numbers and values of the wrong kind are errors with
// the line and column where they are (checkSceneShape), as is trailing
// data; so are two entities with one name.
func parseScene(path string, data []byte) (*Scene, error) {
	return decodeScene(path, data, false)
}

// parseSceneLax is parseScene for the linter, which reports vectors that
// are not three numbers itself: those are zero-filled or cut to three.
func parseSceneLax(path string, data []byte) (*Scene, error) {
	return decodeScene(path, data, true)
}

func decodeScene(path string, data []byte, anyLength bool) (*Scene, error) {
	data = bytes.TrimPrefix(data, utf8BOM)
	if bad := invalidUTF8(data); bad >= 0 {
		line, col := lineCol(data, bad)
		return nil, fmt.Errorf("%s:%d:%d: invalid UTF-8 (a scene is UTF-8 text)", path, line, col)
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	var raw json.RawMessage
	err := dec.Decode(&raw)
	if err == nil {
		end := dec.InputOffset()
		if _, extra := dec.Token(); extra != io.EOF {
			for end < int64(len(data)) && strings.IndexByte(" \t\r\n", data[end]) >= 0 {
				end++
			}
			line, col := lineCol(data, end)
			return nil, fmt.Errorf("%s:%d:%d: unexpected data after the scene object", path, line, col)
		}
	}
	if err != nil {
		var syn *json.SyntaxError
		switch {
		case errors.As(err, &syn):
			// Offset counts the bytes read, the offending one included.
			line, col := lineCol(data, syn.Offset-1)
			return nil, fmt.Errorf("%s:%d:%d: %v", path, line, col, err)
		case errors.Is(err, io.ErrUnexpectedEOF):
			line, col := lineCol(data, int64(len(data)))
			return nil, fmt.Errorf("%s:%d:%d: unexpected end of JSON input", path, line, col)
		case errors.Is(err, io.EOF):
			return nil, fmt.Errorf("%s: empty scene file", path)
		default:
			return nil, fmt.Errorf("%s: %v", path, err)
		}
	}
	if err := checkSceneShape(data, anyLength); err != nil {
		var se *sceneError
		if errors.As(err, &se) {
			line, col := lineCol(data, se.offset)
			return nil, fmt.Errorf("%s:%d:%d: %s", path, line, col, se.msg)
		}
		return nil, fmt.Errorf("%s: %v", path, err)
	}
	var sc Scene
	dec = json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&sc); err != nil {
		// checkSceneShape lets nothing through that fails here.
		return nil, fmt.Errorf("%s: %v", path, err)
	}
	seen := make(map[string]int)
	for i, e := range sc.Entities {
		if e.Name == "" {
			continue
		}
		if j, dup := seen[e.Name]; dup {
			return nil, fmt.Errorf("%s: entities %d and %d are both named %q", path, j+1, i+1, e.Name)
		}
		seen[e.Name] = i
	}
	if err := checkZones(data, sc.Zones); err != nil {
		return nil, fmt.Errorf("%s:%v", path, err)
	}
	return &sc, nil
}

// invalidUTF8 returns the offset of data's first byte that is not valid
// UTF-8, or -1. encoding/json would quietly turn such bytes into U+FFFD,
// so two names that differ only there would become one.
func invalidUTF8(data []byte) int64 {
	if utf8.Valid(data) {
		return -1
	}
	for i := 0; i < len(data); {
		r, n := utf8.DecodeRune(data[i:])
		if r == utf8.RuneError && n == 1 {
			return int64(i)
		}
		i += n
	}
	return -1
}

// lineCol converts a 0-based byte offset into 1-based line and column.
func lineCol(data []byte, offset int64) (line, col int) {
	offset = max(0, min(offset, int64(len(data))))
	before := data[:offset]
	line = bytes.Count(before, []byte("\n")) + 1
	col = int(offset) - bytes.LastIndexByte(before, '\n')
	return line, col
}

// world is a loaded scene: its runtime and Lua host, all entities active.
type world struct {
	rt   *runtime.Runtime
	host *luabind.Host
}

// loadConfig is what loading a scene takes from the command line.
type loadConfig struct {
	seed    *int64
	budget  time.Duration
	ceiling int64
	stdout  io.Writer
	stderr  io.Writer
	// log receives ctx.log lines; nil means stderr.
	log io.Writer
	// keep, when set, says which of the scene's entities to spawn, and
	// join receives the host before any entity exists (zones.go).
	keep func(SceneEntity) bool
	join func(*luabind.Host)
	// tune, when set, adjusts the host's options (--profile).
	tune func(*luabind.Options)
}

// hostOptions returns the options of a host on dir with cfg's settings.
func (cfg loadConfig) hostOptions(dir string) luabind.Options {
	log := cfg.log
	if log == nil {
		log = cfg.stderr
	}
	o := luabind.Options{Dir: dir, Budget: cfg.budget, MemoryCeiling: cfg.ceiling, Stdout: cfg.stdout, Log: log}
	if cfg.tune != nil {
		cfg.tune(&o)
	}
	return o
}

// loadScene reads and starts a scene: every script is loaded (compiled, its
// chunk run) before any entity exists, so a broken script stops the start
// with nothing run; then the blackboard is filled, entities spawned and
// scripts attached in file order, and every entity activated.
func loadScene(path string, cfg loadConfig) (*world, error) {
	data, err := readScene(path)
	if err != nil {
		return nil, err
	}
	sc, err := parseScene(path, data)
	if err != nil {
		return nil, err
	}
	dir := "scripts"
	if sc.Scripts != nil {
		dir = *sc.Scripts
	}
	if !filepath.IsAbs(dir) {
		dir = filepath.Join(filepath.Dir(path), dir)
	}
	var seed int64
	if sc.Seed != nil {
		seed = *sc.Seed
	}
	if cfg.seed != nil {
		seed = *cfg.seed
	}
	rt := runtime.New(runtime.Options{Seed: seed, OnError: runtime.Writer(cfg.stderr)})
	host, err := luabind.New(rt, cfg.hostOptions(dir))
	if err != nil {
		return nil, fmt.Errorf("%s: %v", path, err)
	}
	if cfg.join != nil {
		cfg.join(host)
	}
	fail := func(err error) (*world, error) {
		_ = host.Close()
		return nil, err
	}
	for i, e := range sc.Entities {
		for _, s := range e.Scripts {
			if _, err := host.Load(s.Script); err != nil {
				return fail(fmt.Errorf("%s: entity %s: %v", path, entityLabel(i, e), err))
			}
		}
		for _, s := range e.Scripts {
			if _, err := runtime.Plain(s.Props); err != nil {
				return fail(fmt.Errorf("%s: entity %s: script %s: props: %v", path, entityLabel(i, e), s.Script, err))
			}
		}
	}
	for _, k := range slices.Sorted(maps.Keys(sc.Blackboard)) {
		if err := rt.Blackboard().Set(k, sc.Blackboard[k]); err != nil {
			return fail(fmt.Errorf("%s: %v", path, err))
		}
	}
	var spawned []runtime.Handle
	for i, e := range sc.Entities {
		if cfg.keep != nil && !cfg.keep(e) {
			continue
		}
		h := rt.Spawn()
		spawned = append(spawned, h)
		if e.Name != "" {
			_ = rt.SetName(h, e.Name)
		}
		for _, tag := range e.Tags {
			if err := rt.Tag(h, tag); err != nil {
				return fail(fmt.Errorf("%s: entity %s: tags: %v", path, entityLabel(i, e), err))
			}
		}
		for part, v := range []*[3]float64{runtime.Position: e.Position, runtime.Rotation: e.Rotation, runtime.Scale: e.Scale} {
			if v != nil {
				_ = rt.Set(h, runtime.Part(part), runtime.Vec3{X: v[0], Y: v[1], Z: v[2]})
			}
		}
		for _, s := range e.Scripts {
			// What the scripts attached so far did during setup is world
			// behaviour, not a scene error (SPEC 7): an onCreate that
			// killed its own entity leaves the rest of its scripts
			// unattached, and the start goes on.
			if st, err := rt.State(h); err != nil || st != runtime.StatePending {
				break
			}
			// The entity is Pending and every script is loaded, so
			// attach cannot fail here.
			if _, err := host.Attach(h, s.Script, s.Props); err != nil {
				return fail(fmt.Errorf("%s: %v", path, err))
			}
		}
	}
	for _, h := range spawned {
		if st, err := rt.State(h); err == nil && st == runtime.StatePending {
			_ = rt.Activate(h)
		}
	}
	return &world{rt: rt, host: host}, nil
}

func entityLabel(i int, e SceneEntity) string {
	if e.Name != "" {
		return fmt.Sprintf("%d (%s)", i+1, e.Name)
	}
	return fmt.Sprint(i + 1)
}
