package runtime

import (
	"cmp"
	"encoding"
	"reflect"
	"slices"
	"strings"
	"sync"
)

// Plain data from Go values of any type: the canonical forms and
// []any and map[string]any are copied by plain; every other type is read
// here by reflection, the way encoding/json reads it.

// MaxExactInt is the largest integer magnitude a Lua number (a float64)
// holds exactly: 2^53. Plain refuses a Go integer beyond it instead of
// rounding it.
const MaxExactInt = 1 << 53

// exactInt returns n as a Lua number, or an error when n is beyond
// ±MaxExactInt.
func exactInt(n int64, path string) (any, error) {
	if n > MaxExactInt || n < -MaxExactInt {
		return nil, notPlain(path, "the integer %d: a Lua number holds integers up to ±2^53 exactly", n)
	}
	return float64(n), nil
}

// exactUint is exactInt for unsigned integers.
func exactUint(n uint64, path string) (any, error) {
	if n > MaxExactInt {
		return nil, notPlain(path, "the integer %d: a Lua number holds integers up to ±2^53 exactly", n)
	}
	return float64(n), nil
}

var textMarshaler = reflect.TypeFor[encoding.TextMarshaler]()

// ptrRef identifies a pointer on the path being copied, for cycle
// detection. Its type is part of it: a struct and its first field share
// an address.
type ptrRef struct {
	p uintptr
	t reflect.Type
}

// plainReflect is value for a value of any other type than the ones
// value knows (never an interface: rv holds a dynamic value).
func plainReflect(rv reflect.Value, path string, depth int, seen []any, c *PlainCount) (any, error) {
	if rv.Type().Implements(textMarshaler) && (rv.Kind() != reflect.Pointer || !rv.IsNil()) {
		text, err := rv.Interface().(encoding.TextMarshaler).MarshalText()
		if err != nil {
			return nil, notPlain(path, "a %s whose MarshalText failed: %v", rv.Type(), err)
		}
		return c.str(path, string(text))
	}
	switch rv.Kind() {
	case reflect.Bool:
		return rv.Bool(), nil
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return exactInt(rv.Int(), path)
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return exactUint(rv.Uint(), path)
	case reflect.Float32, reflect.Float64:
		return rv.Float(), nil
	case reflect.String:
		return c.str(path, rv.String())
	case reflect.Pointer:
		if rv.IsNil() {
			return nil, nil
		}
		id := ptrRef{rv.Pointer(), rv.Type()}
		if slices.Contains(seen, any(id)) {
			return nil, notPlain(path, "a cycle")
		}
		return plainReflectValue(rv.Elem(), path, depth, append(seen, id), c)
	case reflect.Slice, reflect.Array, reflect.Map, reflect.Struct:
		return plainTable(rv, path, depth, seen, c)
	}
	return nil, notPlain(path, "a value of type %s", rv.Type())
}

// plainTable copies a slice, array, map or struct as a Table: a slice or
// an array as the array 1..n (a []byte is a string), a map with string
// keys by its keys, sorted, and a struct by its exported fields (fields).
func plainTable(rv reflect.Value, path string, depth int, seen []any, c *PlainCount) (any, error) {
	k := rv.Kind()
	if k == reflect.Slice && rv.Type().Elem().Kind() == reflect.Uint8 {
		return c.str(path, string(rv.Bytes()))
	}
	if depth >= MaxPlainDepth {
		return nil, notPlain(path, "tables nested deeper than %d", MaxPlainDepth)
	}
	switch {
	case k == reflect.Slice && rv.Len() > 0:
		id := ref{rv.Pointer(), rv.Len()}
		if slices.Contains(seen, any(id)) {
			return nil, notPlain(path, "a cycle")
		}
		seen = append(seen, id)
	case k == reflect.Map:
		if rv.Type().Key().Kind() != reflect.String {
			return nil, notPlain(path, "a %s: a map's keys must be strings", rv.Type())
		}
		id := ref{rv.Pointer(), -1}
		if slices.Contains(seen, any(id)) {
			return nil, notPlain(path, "a cycle")
		}
		seen = append(seen, id)
	}
	out := &Table{}
	add := func(key any, val reflect.Value) error {
		n := 0
		if s, ok := key.(string); ok {
			n = len(s)
		}
		if err := c.Add(path, n); err != nil {
			return err
		}
		p := joinPath(path, key)
		if err := c.Add(p, 0); err != nil {
			return err
		}
		pv, err := plainReflectValue(val, p, depth+1, seen, c)
		if err != nil {
			return err
		}
		if pv != nil {
			out.Fields = append(out.Fields, Field{Key: key, Value: pv})
		}
		return nil
	}
	switch k {
	case reflect.Slice, reflect.Array:
		for i := range rv.Len() {
			if err := add(float64(i+1), rv.Index(i)); err != nil {
				return nil, err
			}
		}
	case reflect.Map:
		keys := rv.MapKeys()
		slices.SortFunc(keys, func(a, b reflect.Value) int { return cmp.Compare(a.String(), b.String()) })
		for _, key := range keys {
			if err := add(key.String(), rv.MapIndex(key)); err != nil {
				return nil, err
			}
		}
	case reflect.Struct:
		for _, f := range fields(rv.Type()) {
			fv, ok := fieldByIndex(rv, f.index)
			if !ok || f.omitEmpty && emptyValue(fv) || f.omitZero && fv.IsZero() {
				continue
			}
			if err := add(f.name, fv); err != nil {
				return nil, err
			}
		}
	}
	return out, nil
}

// plainReflectValue is value for the element, field or pointee rv. Every
// value plain reaches can be had as an interface: it reads exported
// fields only, and those promoted from embedded structs, as
// encoding/json does.
func plainReflectValue(rv reflect.Value, path string, depth int, seen []any, c *PlainCount) (any, error) {
	return value(rv.Interface(), path, depth, seen, c)
}

// str returns s, counting its bytes against MaxPlainBytes.
func (c *PlainCount) str(path, s string) (any, error) {
	c.Bytes += len(s)
	if c.Bytes > MaxPlainBytes {
		return nil, notPlain(path, "more than %d values or %d MiB in one copy (a table shared at several places counts at each)", MaxPlainNodes, MaxPlainBytes>>20)
	}
	return s, nil
}

// structField is one field of a struct as plain data sees it.
type structField struct {
	name      string
	index     []int
	tagged    bool
	omitEmpty bool
	omitZero  bool
}

// fieldCache holds each struct type's fields; types are few, and the
// cache is safe for Runtimes on many goroutines.
var fieldCache sync.Map

// fields returns the fields of struct type t that plain data keeps, as
// encoding/json would: exported fields, under their `json` tag's name
// when it has one; a field tagged "-" is left out; the fields of an
// untagged embedded struct are promoted, a shallower field hiding a
// deeper one of the same name, and of fields equally deep under one name
// only a single tagged one is kept (else none).
func fields(t reflect.Type) []structField {
	if f, ok := fieldCache.Load(t); ok {
		return f.([]structField)
	}
	var all []structField
	collectFields(t, nil, &all, map[reflect.Type]bool{})
	slices.SortStableFunc(all, func(a, b structField) int {
		if c := strings.Compare(a.name, b.name); c != 0 {
			return c
		}
		if c := cmp.Compare(len(a.index), len(b.index)); c != 0 {
			return c
		}
		if a.tagged != b.tagged {
			if a.tagged {
				return -1
			}
			return 1
		}
		return 0
	})
	var out []structField
	for i := 0; i < len(all); {
		j := i + 1
		for j < len(all) && all[j].name == all[i].name {
			j++
		}
		first := all[i]
		ambiguous := j > i+1 && len(all[i+1].index) == len(first.index) && all[i+1].tagged == first.tagged
		if !ambiguous {
			out = append(out, first)
		}
		i = j
	}
	slices.SortFunc(out, func(a, b structField) int { return slices.Compare(a.index, b.index) })
	f, _ := fieldCache.LoadOrStore(t, out)
	return f.([]structField)
}

// collectFields lists the fields of t, under index, promoting embedded
// structs (each type once on a path, as a cycle of embedded pointers
// would never end).
func collectFields(t reflect.Type, index []int, out *[]structField, on map[reflect.Type]bool) {
	if on[t] {
		return
	}
	on[t] = true
	defer delete(on, t)
	for i := range t.NumField() {
		sf := t.Field(i)
		tag := sf.Tag.Get("json")
		if tag == "-" {
			continue
		}
		name, opts, _ := strings.Cut(tag, ",")
		idx := append(slices.Clip(index), i)
		if sf.Anonymous && name == "" {
			ft := sf.Type
			if ft.Kind() == reflect.Pointer {
				ft = ft.Elem()
			}
			if ft.Kind() == reflect.Struct {
				collectFields(ft, idx, out, on)
				continue
			}
		}
		if !sf.IsExported() {
			continue
		}
		f := structField{name: name, index: idx, tagged: name != ""}
		if name == "" {
			f.name = sf.Name
		}
		for opt := range strings.SplitSeq(opts, ",") {
			f.omitEmpty = f.omitEmpty || opt == "omitempty"
			f.omitZero = f.omitZero || opt == "omitzero"
		}
		*out = append(*out, f)
	}
}

// fieldByIndex is rv.FieldByIndex that reports false instead of panicking
// at a nil embedded pointer.
func fieldByIndex(rv reflect.Value, index []int) (reflect.Value, bool) {
	for i, x := range index {
		if i > 0 {
			if rv.Kind() == reflect.Pointer {
				if rv.IsNil() {
					return reflect.Value{}, false
				}
				rv = rv.Elem()
			}
		}
		rv = rv.Field(x)
	}
	return rv, true
}

// emptyValue is encoding/json's omitempty test.
func emptyValue(v reflect.Value) bool {
	switch v.Kind() {
	case reflect.Array, reflect.Map, reflect.Slice, reflect.String:
		return v.Len() == 0
	case reflect.Bool:
		return !v.Bool()
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return v.Int() == 0
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return v.Uint() == 0
	case reflect.Float32, reflect.Float64:
		return v.Float() == 0
	case reflect.Interface, reflect.Pointer:
		return v.IsNil()
	}
	return false
}
