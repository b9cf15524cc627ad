package scene

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"strconv"
	"strings"
)

// MaxEntities is the most entities a scene lists: an entity costs
// the runtime some hundred bytes against a scene's two, so a scene of
// twenty million "{}" (within MaxSize) would take gigabytes before the
// first frame.
const MaxEntities = 1_000_000

// sceneError is a scene problem at a byte offset of the file.
type sceneError struct {
	offset int64
	msg    string
}

func (e *sceneError) Error() string { return e.msg }

// checkShape walks the tokens of a syntactically valid scene and
// checks what encoding/json lets through or reports without a place: a
// null where an object or a value is needed, a duplicate key in any
// object, a position, rotation or scale that is not exactly three numbers,
// a script entry that is neither a name nor {"script", "props"}, a field
// that Scene does not have (by its exact name), and a value of the wrong
// kind. The shape is read from the Scene type itself, so a field added to
// it is checked too. The error's offset is where the offending token
// starts; its message names the place as a path ("entities[0].position",
// indices from 0) and JSON kinds, never Go types. With anyLength, vectors
// may have any number of numbers (the linter reports those itself).
func checkShape(data []byte, anyLength bool) error {
	w := &shapeWalker{data: data, dec: json.NewDecoder(bytes.NewReader(data)), anyLength: anyLength}
	w.dec.UseNumber()
	return w.value(reflect.TypeFor[Scene](), "")
}

type shapeWalker struct {
	data      []byte
	dec       *json.Decoder
	anyLength bool
}

// next returns the next token and the offset where it starts.
func (w *shapeWalker) next() (json.Token, int64, error) {
	at := w.dec.InputOffset()
	for at < int64(len(w.data)) && strings.IndexByte(" \t\r\n,:", w.data[at]) >= 0 {
		at++
	}
	tok, err := w.dec.Token()
	return tok, at, err
}

var scriptType = reflect.TypeFor[Script]()

// value checks one value of Go type t at path.
func (w *shapeWalker) value(t reflect.Type, path string) error {
	tok, at, err := w.next()
	if err != nil {
		return err
	}
	bad := func(want string) error {
		return &sceneError{at, fmt.Sprintf("%s: want %s, got %s", where(path), want, kindOf(tok))}
	}
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch {
	case t == scriptType:
		if s, ok := tok.(string); ok {
			if s == "" {
				return &sceneError{at, where(path) + `: want a script name, got ""`}
			}
			return nil
		}
		if tok != json.Delim('{') {
			return bad(`a script name or {"script": name, "props": {...}}`)
		}
		seen, err := w.fields(t, path, at)
		if err != nil {
			return err
		}
		if s, _ := seen["script"].(string); s == "" {
			return &sceneError{at, where(path) + `: a script entry needs "script", a script name`}
		}
		return nil
	case t.Kind() == reflect.Struct:
		if tok != json.Delim('{') {
			return bad("an object")
		}
		_, err := w.fields(t, path, at)
		return err
	case t.Kind() == reflect.Array:
		if tok != json.Delim('[') {
			return bad(fmt.Sprintf("%d numbers [x, y, z]", t.Len()))
		}
		n := 0
		for w.dec.More() {
			if err := w.value(t.Elem(), fmt.Sprintf("%s[%d]", path, n)); err != nil {
				return err
			}
			n++
		}
		if _, _, err := w.next(); err != nil {
			return err
		}
		if n != t.Len() && !w.anyLength {
			return &sceneError{at, fmt.Sprintf("%s: want exactly %d numbers [x, y, z], got %d", where(path), t.Len(), n)}
		}
		return nil
	case t.Kind() == reflect.Slice:
		if tok != json.Delim('[') {
			return bad("an array")
		}
		for i := 0; w.dec.More(); i++ {
			if path == "entities" && i == MaxEntities {
				_, at, _ := w.next()
				return &sceneError{at, fmt.Sprintf("entities: more than %d entities", MaxEntities)}
			}
			if err := w.value(t.Elem(), fmt.Sprintf("%s[%d]", path, i)); err != nil {
				return err
			}
		}
		_, _, err := w.next()
		return err
	case t.Kind() == reflect.Map:
		if tok != json.Delim('{') {
			return bad("an object")
		}
		return w.entries(at, path, func(key string) error { return w.value(t.Elem(), child(path, key)) })
	case t.Kind() == reflect.Interface:
		// Any JSON value, null included (plain data); objects inside
		// are checked for duplicate keys.
		return w.anyRest(tok, at, path)
	case t.Kind() == reflect.String:
		if _, ok := tok.(string); !ok {
			return bad("a string")
		}
	case t.Kind() == reflect.Int64:
		n, ok := tok.(json.Number)
		if !ok {
			return bad("an integer")
		}
		if _, err := strconv.ParseInt(string(n), 10, 64); err != nil {
			return &sceneError{at, fmt.Sprintf("%s: want an integer, got %s", where(path), n)}
		}
	case t.Kind() == reflect.Float64:
		n, ok := tok.(json.Number)
		if !ok {
			return bad("a number")
		}
		if _, err := n.Float64(); err != nil {
			return &sceneError{at, fmt.Sprintf("%s: %s is out of range", where(path), n)}
		}
	case t.Kind() == reflect.Bool:
		if _, ok := tok.(bool); !ok {
			return bad("true or false")
		}
	default:
		return &sceneError{at, fmt.Sprintf("%s: cannot check a field of this kind", where(path))}
	}
	return nil
}

// fields checks the rest of an object (its '{' at open read) against the
// struct type t: exact JSON field names, no duplicates. It returns the
// string values of the fields, for the callers that need one.
func (w *shapeWalker) fields(t reflect.Type, path string, open int64) (map[string]any, error) {
	byName := make(map[string]reflect.Type)
	for f := range t.Fields() {
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if f.IsExported() && name != "" && name != "-" {
			byName[name] = f.Type
		}
	}
	seen := make(map[string]any)
	err := w.entries(open, path, func(key string) error {
		ft, ok := byName[key]
		if !ok {
			return fmt.Errorf("unknown field %q", key)
		}
		if ft.Kind() == reflect.String {
			tok, at, err := w.next()
			if err != nil {
				return err
			}
			s, ok := tok.(string)
			if !ok {
				return &sceneError{at, fmt.Sprintf("%s: want a string, got %s", child(path, key), kindOf(tok))}
			}
			seen[key] = s
			return nil
		}
		seen[key] = nil
		return w.value(ft, child(path, key))
	})
	return seen, err
}

// entries reads the members of an object whose '{' is at open, calling
// member for each key to read its value. A duplicate key is an error at
// the key; so is a plain error that member returns (unknown field).
func (w *shapeWalker) entries(open int64, path string, member func(key string) error) error {
	keys := make(map[string]bool)
	for w.dec.More() {
		tok, at, err := w.next()
		if err != nil {
			return err
		}
		key := tok.(string) // a valid object's members start with a key
		if keys[key] {
			return &sceneError{at, fmt.Sprintf("%s: duplicate key %q", where(path), key)}
		}
		keys[key] = true
		if err := member(key); err != nil {
			if _, placed := err.(*sceneError); !placed {
				err = &sceneError{at, fmt.Sprintf("%s: %v", where(path), err)}
			}
			return err
		}
	}
	_, _, err := w.next()
	return err
}

// anyRest checks the rest of a free JSON value whose first token is tok.
func (w *shapeWalker) anyRest(tok json.Token, at int64, path string) error {
	switch tok {
	case json.Delim('{'):
		return w.entries(at, path, func(key string) error {
			next, nat, err := w.next()
			if err != nil {
				return err
			}
			return w.anyRest(next, nat, child(path, key))
		})
	case json.Delim('['):
		for i := 0; w.dec.More(); i++ {
			next, nat, err := w.next()
			if err != nil {
				return err
			}
			if err := w.anyRest(next, nat, fmt.Sprintf("%s[%d]", path, i)); err != nil {
				return err
			}
		}
		_, _, err := w.next()
		return err
	}
	if n, ok := tok.(json.Number); ok {
		if _, err := n.Float64(); err != nil {
			return &sceneError{at, fmt.Sprintf("%s: %s is out of range", where(path), n)}
		}
	}
	return nil
}

// kindOf names a token's JSON kind.
func kindOf(tok json.Token) string {
	switch v := tok.(type) {
	case nil:
		return "null"
	case bool:
		return strconv.FormatBool(v)
	case json.Number:
		return "a number"
	case string:
		return "a string"
	case json.Delim:
		if v == '{' {
			return "an object"
		}
		return "an array"
	}
	return "a value"
}

// child is the path of key inside the object at path ("" is the root).
func child(path, key string) string {
	if path == "" {
		return key
	}
	return path + "." + key
}

// where names path in a message.
func where(path string) string {
	if path == "" {
		return "the scene"
	}
	return path
}
