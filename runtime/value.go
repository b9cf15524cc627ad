package runtime

import (
	"fmt"
	"math"
	"reflect"
	"slices"
	"strings"
)

// Plain data is what the blackboard and events carry between scripts and
// Lua states. Its canonical Go forms are: nil, bool, float64,
// string, Handle, Vec3 (a vector) and *Table. Values are
// always copied in and out, so no two owners ever share a table.

// MaxPlainDepth is how deeply tables may nest in plain data.
const MaxPlainDepth = 64

// MaxPlainNodes and MaxPlainBytes bound one copy of plain data:
// at most MaxPlainNodes values (every key and every value, tables
// included) and MaxPlainBytes bytes of strings. A table that several
// places share is copied (and counted) at each place, so that a DAG of
// shared subtables, whose paths grow exponentially with its depth, is
// refused after a bounded walk instead of being copied exponentially.
const (
	MaxPlainNodes = 1 << 20
	MaxPlainBytes = 64 << 20
)

// PlainCount counts one copy of plain data against MaxPlainNodes and
// MaxPlainBytes. The zero value is a fresh count.
type PlainCount struct {
	Nodes, Bytes int
}

// Add counts one value of n string bytes found at path and returns an
// error wrapping ErrNotPlain once the copy is past its bounds.
func (c *PlainCount) Add(path string, n int) error {
	c.Nodes++
	c.Bytes += n
	if c.Nodes > MaxPlainNodes || c.Bytes > MaxPlainBytes {
		return notPlain(path, "more than %d values or %d MiB in one copy (a table shared at several places counts at each)", MaxPlainNodes, MaxPlainBytes>>20)
	}
	return nil
}

// Table is a table of plain data: fields in a fixed order, as a Lua table's
// pairs would list them. Keys are bool, float64, string or Handle; the
// array part of a Lua table is the keys 1..n in order.
type Table struct {
	Fields []Field
}

// Field is one key and value of a Table.
type Field struct {
	Key   any
	Value any
}

// Get returns the value stored under key, or nil. O(n).
func (t *Table) Get(key any) any {
	key = canonicalKey(key)
	for _, f := range t.Fields {
		if f.Key == key {
			return f.Value
		}
	}
	return nil
}

// Len returns the length of the table's array part: the largest n such that
// keys 1..n are all present.
func (t *Table) Len() int {
	n := 0
	for t.Get(float64(n+1)) != nil {
		n++
	}
	return n
}

// Plain returns the canonical plain-data copy of v, or an error wrapping
// ErrNotPlain that names the path of the bad value ("items[3].owner").
// It accepts, as encoding/json does:
//
//   - nil, bool, string, Handle, Vec3, *Table and Table as they are;
//   - every Go integer and float type as a float64; an integer beyond
//     ±MaxExactInt (2^53), which a Lua number cannot hold exactly, is an
//     error, never a rounding;
//   - a slice or an array (of any element type) as the array 1..n, and a
//     []byte as a string;
//   - a map whose keys are strings (of any value type), keys sorted so
//     that the result is deterministic;
//   - a struct by its exported fields, `json` tags honoured: the name,
//     "-" to leave a field out, omitempty and omitzero; an untagged
//     embedded struct's fields are promoted;
//   - a pointer or an interface as what it points to (nil as nil), and
//     an encoding.TextMarshaler (time.Time, for one) as its text.
//
// Any other type (a chan, a func, a complex number, a map with keys that
// are not strings) is an error, as is a value that contains itself. A
// nil in a slice leaves a hole; a nil field or map value is left out.
// The copy is bounded by MaxPlainDepth, MaxPlainNodes and MaxPlainBytes.
func Plain(v any) (any, error) {
	return plain(v, "", 0, nil, &PlainCount{})
}

// PlainAt is Plain for a value found at path: error messages name the bad
// value's path from there ("props.items[3]").
func PlainAt(path string, v any) (any, error) {
	return plain(v, path, 0, nil, &PlainCount{})
}

// plain counts v and copies it.
func plain(v any, path string, depth int, seen []any, c *PlainCount) (any, error) {
	if err := c.Add(path, 0); err != nil {
		return nil, err
	}
	return value(v, path, depth, seen, c)
}

// value copies v, which the caller counted, with fast paths for the
// canonical types, []any and map[string]any; any other type is read by
// reflection (plainReflect).
func value(v any, path string, depth int, seen []any, c *PlainCount) (any, error) {
	switch x := v.(type) {
	case nil, bool, Handle, Vec3, float64:
		return x, nil
	case string:
		return c.str(path, x)
	case float32:
		return float64(x), nil
	case int:
		return exactInt(int64(x), path)
	case int8:
		return float64(x), nil
	case int16:
		return float64(x), nil
	case int32:
		return float64(x), nil
	case int64:
		return exactInt(x, path)
	case uint:
		return exactUint(uint64(x), path)
	case uint8:
		return float64(x), nil
	case uint16:
		return float64(x), nil
	case uint32:
		return float64(x), nil
	case uint64:
		return exactUint(x, path)
	case *Table, Table, []any, map[string]any:
	default:
		return plainReflect(reflect.ValueOf(v), path, depth, seen, c)
	}
	if depth >= MaxPlainDepth {
		return nil, notPlain(path, "tables nested deeper than %d", MaxPlainDepth)
	}
	out := &Table{}
	add := func(k, val any) error {
		k = canonicalKey(k)
		if !validKey(k) {
			return notPlain(path, "a key of type %T", k)
		}
		n := 0
		if s, ok := k.(string); ok {
			n = len(s)
		}
		if err := c.Add(path, n); err != nil {
			return err
		}
		pv, err := plain(val, joinPath(path, k), depth+1, seen, c)
		if err != nil {
			return err
		}
		if pv != nil {
			out.Fields = append(out.Fields, Field{Key: k, Value: pv})
		}
		return nil
	}
	switch x := v.(type) {
	case *Table:
		if x == nil {
			return nil, nil
		}
		if slices.Contains(seen, any(x)) {
			return nil, notPlain(path, "a cycle")
		}
		seen = append(seen, x)
		for _, f := range x.Fields {
			if err := add(f.Key, f.Value); err != nil {
				return nil, err
			}
		}
	case Table:
		return value(&x, path, depth, seen, c)
	case []any:
		if len(x) > 0 {
			id := ref{reflect.ValueOf(x).Pointer(), len(x)}
			if slices.Contains(seen, any(id)) {
				return nil, notPlain(path, "a cycle")
			}
			seen = append(seen, id)
		}
		for i, e := range x {
			if err := add(float64(i+1), e); err != nil {
				return nil, err
			}
		}
	case map[string]any:
		if len(x) == 0 {
			// No cycle to look for: the absent props of a scene's
			// every attach come here.
			break
		}
		id := ref{reflect.ValueOf(x).Pointer(), -1}
		if slices.Contains(seen, any(id)) {
			return nil, notPlain(path, "a cycle")
		}
		seen = append(seen, id)
		keys := make([]string, 0, len(x))
		for k := range x {
			keys = append(keys, k)
		}
		slices.Sort(keys)
		for _, k := range keys {
			if err := add(k, x[k]); err != nil {
				return nil, err
			}
		}
	}
	return out, nil
}

// ref identifies a map (n < 0) or a non-empty slice on the path being
// copied, for cycle detection: maps and slices are not comparable, their
// addresses are. A slice is its first element's address and its length.
type ref struct {
	p uintptr
	n int
}

func canonicalKey(k any) any {
	if p, err := value(k, "", MaxPlainDepth, nil, &PlainCount{}); err == nil {
		return p
	}
	return k
}

func validKey(k any) bool {
	switch x := k.(type) {
	case bool, string, Handle:
		return true
	case float64:
		return !math.IsNaN(x)
	}
	return false
}

func notPlain(path, format string, args ...any) error {
	what := fmt.Sprintf(format, args...)
	if path == "" {
		return fmt.Errorf("%w: cannot store %s", ErrNotPlain, what)
	}
	return fmt.Errorf("%w: %s: cannot store %s", ErrNotPlain, path, what)
}

// joinPath extends a value path for error messages: a.b, a[2].
func joinPath(path string, key any) string {
	switch k := key.(type) {
	case string:
		if path == "" {
			return k
		}
		return path + "." + k
	case float64:
		return fmt.Sprintf("%s[%v]", path, k)
	default:
		return fmt.Sprintf("%s[%v]", path, k)
	}
}

// FormatPlain renders plain data compactly and deterministically, for logs
// and tests: {1, 2, hp=7}.
func FormatPlain(v any) string {
	var b strings.Builder
	formatPlain(&b, v)
	return b.String()
}

func formatPlain(b *strings.Builder, v any) {
	switch x := v.(type) {
	case nil:
		b.WriteString("nil")
	case string:
		fmt.Fprintf(b, "%q", x)
	case Vec3:
		fmt.Fprintf(b, "vec3(%v, %v, %v)", x.X, x.Y, x.Z)
	case *Table:
		b.WriteByte('{')
		for i, f := range x.Fields {
			if i > 0 {
				b.WriteString(", ")
			}
			if k, ok := f.Key.(float64); !ok || k != float64(i+1) {
				if s, ok := f.Key.(string); ok {
					b.WriteString(s)
				} else {
					b.WriteByte('[')
					formatPlain(b, f.Key)
					b.WriteByte(']')
				}
				b.WriteByte('=')
			}
			formatPlain(b, f.Value)
		}
		b.WriteByte('}')
	default:
		fmt.Fprint(b, x)
	}
}
