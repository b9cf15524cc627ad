package lint

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/luahost/luahost/internal/scene"
	"github.com/luahost/luahost/runtime"
)

// jsonOffsets maps the path of every value of a JSON document
// (".entities[0].position") to the byte offset where it starts, and the
// path of every object member with "#key" appended to where its key
// starts. It stops quietly at a syntax error.
func jsonOffsets(data []byte) map[string]int {
	dec := json.NewDecoder(bytes.NewReader(data))
	out := map[string]int{}
	next := func() int {
		i := int(dec.InputOffset())
		for i < len(data) && strings.IndexByte(" \t\r\n:,", data[i]) >= 0 {
			i++
		}
		return i
	}
	var walk func(path string) error
	walk = func(path string) error {
		off := next()
		tok, err := dec.Token()
		if err != nil {
			return err
		}
		out[path] = off
		switch tok {
		case json.Delim('{'):
			for dec.More() {
				koff := next()
				k, err := dec.Token()
				if err != nil {
					return err
				}
				key, _ := k.(string)
				out[path+"."+key+"#key"] = koff
				if err := walk(path + "." + key); err != nil {
					return err
				}
			}
			_, err = dec.Token()
		case json.Delim('['):
			for i := 0; dec.More(); i++ {
				if err := walk(fmt.Sprintf("%s[%d]", path, i)); err != nil {
					return err
				}
			}
			_, err = dec.Token()
		}
		return err
	}
	_ = walk("")
	return out
}

// errUnchecked is a script that exists but does not load: its own check
// reports why, and its props cannot be checked.
var errUnchecked = errors.New("the script does not load")

// sceneLint is what checking a scene found: its problems, its script
// directory and the scripts it names.
type sceneLint struct {
	problems []Problem
	dir      string
}

// positionRE reads "path:line:col: message" from scene.Parse's errors.
var positionRE = regexp.MustCompile(`^(.*?):(\d+):(\d+): (.*)$`)

// lintScene checks a scene file: that it parses (bad JSON, unknown
// fields, duplicate names), that position, rotation and scale are three
// numbers, that tags are not empty, that every script it names exists, and that every prop is a
// property the script declares, of the default's type. script returns
// the properties of a script of the scene's directory, or an error when
// it does not load.
func lintScene(path string, data []byte, script func(dir, name string) (any, error)) sceneLint {
	offsets := jsonOffsets(data)
	at := func(key, sev, format string, args ...any) Problem {
		line, col := 1, 1
		if off, ok := offsets[key]; ok {
			line, col = scene.LineCol(data, int64(off))
		}
		return Problem{Path: path, Line: line, Col: col, Severity: sev, Message: fmt.Sprintf(format, args...)}
	}
	sc, err := scene.ParseLax(path, data)
	if err != nil {
		msg := err.Error()
		if m := positionRE.FindStringSubmatch(msg); m != nil {
			line, _ := strconv.Atoi(m[2])
			col, _ := strconv.Atoi(m[3])
			return sceneLint{problems: []Problem{{Path: path, Line: line, Col: col, Severity: Error, Message: m[4]}}}
		}
		return sceneLint{problems: []Problem{{Path: path, Line: 1, Col: 1, Severity: Error, Message: strings.TrimPrefix(msg, path+": ")}}}
	}
	var out []Problem
	var raw struct {
		Entities []map[string]json.RawMessage `json:"entities"`
	}
	_ = json.Unmarshal(data, &raw)
	for i, e := range raw.Entities {
		for _, part := range []string{"position", "rotation", "scale"} {
			v, ok := e[part]
			if !ok || string(v) == "null" {
				continue
			}
			var list []any
			if json.Unmarshal(v, &list) != nil {
				continue // scene.ParseLax reported it
			}
			if len(list) != 3 {
				out = append(out, at(fmt.Sprintf(".entities[%d].%s", i, part), Error,
					"entity %s: %s must be three numbers [x, y, z], not %d", scene.EntityLabel(i, sc.Entities[i]), part, len(list)))
			}
		}
	}
	for i, e := range sc.Entities {
		for j, tag := range e.Tags {
			if tag == "" {
				out = append(out, at(fmt.Sprintf(".entities[%d].tags[%d]", i, j), Error,
					"entity %s: tags: %v", scene.EntityLabel(i, e), runtime.ErrBadTag))
			}
		}
	}
	dir := "scripts"
	if sc.Scripts != nil {
		dir = *sc.Scripts
	}
	if !filepath.IsAbs(dir) {
		dir = filepath.Join(filepath.Dir(path), dir)
	}
	for i, e := range sc.Entities {
		for j, s := range e.Scripts {
			key := fmt.Sprintf(".entities[%d].scripts[%d]", i, j)
			props, err := script(dir, s.Script)
			if errors.Is(err, errUnchecked) {
				continue
			}
			if err != nil {
				out = append(out, at(key, Error, "entity %s: %s", scene.EntityLabel(i, e), strings.ReplaceAll(err.Error(), "\n", " ")))
				continue
			}
			decl, _ := props.(*runtime.Table)
			var names []string
			if decl != nil {
				for _, f := range decl.Fields {
					if k, ok := f.Key.(string); ok {
						names = append(names, k)
					}
				}
			}
			for _, k := range slices.Sorted(maps.Keys(s.Props)) {
				pkey := key + ".props." + k + "#key"
				var def any
				if decl != nil {
					def = decl.Get(k)
				}
				if def == nil {
					msg := fmt.Sprintf("entity %s: prop %q is not a property of %s", scene.EntityLabel(i, e), k, s.Script)
					if sug := suggest(k, names); sug != "" {
						msg += "; did you mean " + sug + "?"
					}
					out = append(out, at(pkey, Warning, "%s", msg))
					continue
				}
				if got, want := jsonKind(s.Props[k]), plainKind(def); got != want {
					out = append(out, at(pkey, Warning, "entity %s: prop %q of %s is %s, but its default is %s",
						scene.EntityLabel(i, e), k, s.Script, got, want))
				}
			}
		}
	}
	return sceneLint{problems: out, dir: dir}
}

// jsonKind names the kind of a decoded JSON value as a designer would.
func jsonKind(v any) string {
	switch v.(type) {
	case nil:
		return "null"
	case bool:
		return "a boolean"
	case float64:
		return "a number"
	case string:
		return "a string"
	}
	return "a table"
}

// plainKind names the kind of a property's default.
func plainKind(v any) string {
	switch v.(type) {
	case bool:
		return "a boolean"
	case float64:
		return "a number"
	case string:
		return "a string"
	case runtime.Vec3:
		return "a vec3"
	case runtime.Handle:
		return "an entity"
	}
	return "a table"
}
