// Package scene reads luahost's scene files: a JSON document giving the
// script directory, the seed, the blackboard's initial values, the
// entities with their transforms, tags and scripts, and optionally the
// zones of the world.
//
// [Read] reads a file with a size limit, [Parse] decodes it strictly; a
// refused scene's error starts with "path:line:col: ", the place of the
// offending value, and names JSON kinds, never Go types.
package scene

import (
	"bytes"
	"cmp"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"path/filepath"
	"strings"
	"unicode/utf8"

	"github.com/luahost/luahost/internal/files"
	"github.com/luahost/luahost/snapshot"
)

// Scene is a scene file. Paths are relative to the scene file.
type Scene struct {
	// Scripts is the script directory; default "scripts" beside the scene.
	Scripts *string `json:"scripts"`
	// Seed seeds the scripts' math.random; --seed overrides it.
	Seed *int64 `json:"seed"`
	// Blackboard holds the blackboard's initial values.
	Blackboard map[string]any `json:"blackboard"`
	// Entities are spawned in file order, their scripts attached in
	// listed order.
	Entities []Entity `json:"entities"`
	// Zones places the edges of the world's zones; only
	// run --zones reads it.
	Zones *Zones `json:"zones"`
}

// Entity is one entity of a scene.
type Entity struct {
	Name     string      `json:"name"`
	Position *[3]float64 `json:"position"`
	Rotation *[3]float64 `json:"rotation"`
	Scale    *[3]float64 `json:"scale"`
	Tags     []string    `json:"tags"`
	Scripts  []Script    `json:"scripts"`
}

// Script is one script of an entity: "name" or
// {"script": "name", "props": {...}}.
type Script struct {
	Script string         `json:"script"`
	Props  map[string]any `json:"props"`
}

// UnmarshalJSON accepts a bare script name or the object form, strictly.
func (s *Script) UnmarshalJSON(b []byte) error {
	if len(b) > 0 && b[0] == '"' {
		return json.Unmarshal(b, &s.Script)
	}
	type plain Script
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

// MaxSize is the largest scene file read: room for MaxEntities entities
// with names, positions and a script (a million such take 45-60 MB; the
// file is read whole and decoded in one pass, and its decoded scene
// weighs a few times the file).
const MaxSize = 64 << 20

// utf8BOM is the byte order mark some editors put at the start of a file.
var utf8BOM = []byte("\xEF\xBB\xBF")

// Read reads a scene file, which must be a regular file of at most
// MaxSize bytes: a device, a pipe or a directory is refused unread.
func Read(path string) ([]byte, error) {
	data, err := files.ReadRegular(path, MaxSize)
	switch {
	case errors.Is(err, files.ErrNotRegular), errors.Is(err, files.ErrTooLarge):
		return nil, fmt.Errorf("%s: the scene %v", path, err)
	case err != nil:
		return nil, fmt.Errorf("scene: %w", err)
	}
	return data, nil
}

// Parse decodes a scene strictly. A leading UTF-8 byte order mark is
// skipped. Syntax errors, unknown fields, duplicate keys, nulls, vectors
// that are not three numbers and values of the wrong kind are errors with
// the line and column where they are (checkShape), as is trailing
// data; so are two entities with one name.
func Parse(path string, data []byte) (*Scene, error) {
	return decode(path, data, false)
}

// ParseLax is Parse for the linter, which reports vectors that
// are not three numbers itself: those are zero-filled or cut to three.
func ParseLax(path string, data []byte) (*Scene, error) {
	return decode(path, data, true)
}

func decode(path string, data []byte, anyLength bool) (*Scene, error) {
	data = bytes.TrimPrefix(data, utf8BOM)
	if bad := invalidUTF8(data); bad >= 0 {
		line, col := LineCol(data, bad)
		return nil, fmt.Errorf("%s:%d:%d: invalid UTF-8 (a scene is UTF-8 text)", path, line, col)
	}
	if sc, ok := fastDecode(data); ok {
		if err := checkNames(path, sc); err != nil {
			return nil, err
		}
		return sc, nil
	}
	return strictDecode(path, data, anyLength)
}

// strictDecode decodes what fastDecode did not take: it checks the
// syntax with encoding/json, the shape with checkShape, and decodes with
// encoding/json, so that every refusal has its message and place.
func strictDecode(path string, data []byte, anyLength bool) (*Scene, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	var raw json.RawMessage
	err := dec.Decode(&raw)
	if err == nil {
		end := dec.InputOffset()
		if _, extra := dec.Token(); extra != io.EOF {
			for end < int64(len(data)) && strings.IndexByte(" \t\r\n", data[end]) >= 0 {
				end++
			}
			line, col := LineCol(data, end)
			return nil, fmt.Errorf("%s:%d:%d: unexpected data after the scene object", path, line, col)
		}
	}
	if err != nil {
		var syn *json.SyntaxError
		switch {
		case errors.As(err, &syn):
			// Offset counts the bytes read, the offending one included.
			line, col := LineCol(data, syn.Offset-1)
			return nil, fmt.Errorf("%s:%d:%d: %v", path, line, col, err)
		case errors.Is(err, io.ErrUnexpectedEOF):
			line, col := LineCol(data, int64(len(data)))
			return nil, fmt.Errorf("%s:%d:%d: unexpected end of JSON input", path, line, col)
		case errors.Is(err, io.EOF):
			return nil, fmt.Errorf("%s: empty scene file", path)
		default:
			return nil, fmt.Errorf("%s: %v", path, err)
		}
	}
	if err := checkShape(data, anyLength); err != nil {
		var se *sceneError
		if errors.As(err, &se) {
			line, col := LineCol(data, se.offset)
			return nil, fmt.Errorf("%s:%d:%d: %s", path, line, col, se.msg)
		}
		return nil, fmt.Errorf("%s: %v", path, err)
	}
	var sc Scene
	dec = json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&sc); err != nil {
		// checkShape lets nothing through that fails here.
		return nil, fmt.Errorf("%s: %v", path, err)
	}
	if err := checkNames(path, &sc); err != nil {
		return nil, err
	}
	if err := checkZones(data, sc.Zones); err != nil {
		return nil, fmt.Errorf("%s:%v", path, err)
	}
	return &sc, nil
}

// checkNames refuses two entities with one name.
func checkNames(path string, sc *Scene) error {
	named := 0
	for _, e := range sc.Entities {
		if e.Name != "" {
			named++
		}
	}
	// Sized once: growing a map of a million names costs more than
	// decoding them.
	seen := make(map[string]int, named)
	for i, e := range sc.Entities {
		if e.Name == "" {
			continue
		}
		if j, dup := seen[e.Name]; dup {
			return fmt.Errorf("%s: entities %d and %d are both named %q", path, j+1, i+1, e.Name)
		}
		seen[e.Name] = i
	}
	return nil
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

// LineCol converts a 0-based byte offset into 1-based line and column.
func LineCol(data []byte, offset int64) (line, col int) {
	offset = max(0, min(offset, int64(len(data))))
	before := data[:offset]
	line = bytes.Count(before, []byte("\n")) + 1
	col = int(offset) - bytes.LastIndexByte(before, '\n')
	return line, col
}

// EntityLabel names entity i (from 0) of a scene in messages: its number
// from 1, and its name in parentheses when it has one.
func EntityLabel(i int, e Entity) string {
	if e.Name != "" {
		return fmt.Sprintf("%d (%s)", i+1, e.Name)
	}
	return fmt.Sprint(i + 1)
}

// IsSnapshot reports whether a JSON file is a snapshot, not a scene: its
// first key is "format", a field scenes do not have. Only the start of
// the file is read, so that a truncated snapshot is still told apart.
func IsSnapshot(data []byte) bool {
	dec := json.NewDecoder(bytes.NewReader(bytes.TrimPrefix(data, utf8BOM)))
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return false
	}
	t, err := dec.Token()
	return err == nil && t == "format"
}

// SnapshotScripts returns the script folder a snapshot file records,
// relative to the file (default: "scripts" beside it).
func SnapshotScripts(path string, snap *snapshot.World) string {
	dir := filepath.FromSlash(cmp.Or(snap.ScriptsDir, "scripts"))
	if filepath.IsAbs(dir) {
		return dir
	}
	return filepath.Join(filepath.Dir(path), dir)
}
