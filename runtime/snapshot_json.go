package runtime

import (
	"encoding/base64"
	"fmt"
	"math"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Plain data in JSON (docs/snapshot.md). JSON has fewer types than plain
// data, so some values are tagged objects of one "$" key:
//
//	nil                       null
//	true, false, 7.5, "hi"    themselves (a string that is not UTF-8: {"$bytes": "<base64>"})
//	inf, -inf, nan            {"$number": "inf"}, {"$number": "-inf"}, {"$number": "nan"}
//	entity handle             {"$entity": "3:1"}
//	vector                    {"$vec3": [x, y, z]}
//	table with keys 1..n      [v1, v2, ...]
//	table with string keys    {"k": v, ...} in the table's order (no key starting with "$")
//	any other table           {"$table": [[k1, v1], [k2, v2], ...]} in the table's order
//
// The empty table is {}. Keys and values keep the order of the table's
// fields, so a Lua table rebuilt from them lists its keys in the same
// order with pairs.

// PlainJSON wraps plain data (see Plain) for encoding/json, in the form
// above.
type PlainJSON struct{ Value any }

// MarshalJSON encodes p.Value; a value that is not canonical plain data
// is an error wrapping ErrNotPlain.
func (p PlainJSON) MarshalJSON() ([]byte, error) { return AppendPlainJSON(nil, p.Value) }

// UnmarshalJSON decodes plain data in the form above into p.Value.
func (p *PlainJSON) UnmarshalJSON(b []byte) error {
	v, err := ParsePlainJSON(b)
	if err != nil {
		return err
	}
	p.Value = v
	return nil
}

// AppendPlainJSON appends the JSON form of v to b.
func AppendPlainJSON(b []byte, v any) ([]byte, error) {
	switch x := v.(type) {
	case nil:
		return append(b, "null"...), nil
	case bool:
		return strconv.AppendBool(b, x), nil
	case float64:
		return appendNumber(b, x), nil
	case string:
		return appendString(b, x), nil
	case Handle:
		b = append(b, `{"$entity":"`...)
		return append(appendHandle(b, x), `"}`...), nil
	case Vec3:
		b = append(b, `{"$vec3":[`...)
		b = appendNumber(b, x.X)
		b = append(b, ',')
		b = appendNumber(b, x.Y)
		b = append(b, ',')
		b = appendNumber(b, x.Z)
		return append(b, "]}"...), nil
	case *Table:
		return appendTable(b, x)
	}
	return nil, fmt.Errorf("%w: cannot save a value of type %T", ErrNotPlain, v)
}

// appendHandle appends "INDEX:GEN", the JSON form of a handle's id.
func appendHandle(b []byte, h Handle) []byte {
	b = strconv.AppendUint(b, uint64(h.Index), 10)
	b = append(b, ':')
	return strconv.AppendUint(b, uint64(h.Gen), 10)
}

// FormatHandleID returns "INDEX:GEN", how snapshots write a handle.
func FormatHandleID(h Handle) string { return string(appendHandle(nil, h)) }

// ParseHandleID parses "INDEX:GEN"; anything else is an error wrapping
// ErrBadSnapshot.
func ParseHandleID(s string) (Handle, error) {
	i, g, ok := strings.Cut(s, ":")
	idx, err1 := strconv.ParseUint(i, 10, 32)
	gen, err2 := strconv.ParseUint(g, 10, 32)
	if !ok || err1 != nil || err2 != nil {
		return Handle{}, fmt.Errorf("%w: entity id %q (want \"INDEX:GEN\", such as \"3:1\")", ErrBadSnapshot, s)
	}
	return Handle{Index: uint32(idx), Gen: uint32(gen)}, nil
}

// appendNumber writes f in the shortest form that reads back to it, as
// encoding/json does; a number that is not finite as a $number tag, a
// NaN with its sign ("-nan"), which Lua's tostring shows.
func appendNumber(b []byte, f float64) []byte {
	switch {
	case math.IsNaN(f) && math.Signbit(f):
		return append(b, `{"$number":"-nan"}`...)
	case math.IsNaN(f):
		return append(b, `{"$number":"nan"}`...)
	case math.IsInf(f, 1):
		return append(b, `{"$number":"inf"}`...)
	case math.IsInf(f, -1):
		return append(b, `{"$number":"-inf"}`...)
	}
	format := byte('f')
	if a := math.Abs(f); a != 0 && (a < 1e-6 || a >= 1e21) {
		format = 'e'
	}
	return strconv.AppendFloat(b, f, format, -1, 64)
}

// appendString writes s as a JSON string, or as a $bytes tag when it is
// not valid UTF-8 (JSON strings are text; Lua strings are bytes).
func appendString(b []byte, s string) []byte {
	if !utf8.ValidString(s) {
		b = append(b, `{"$bytes":"`...)
		b = base64.StdEncoding.AppendEncode(b, []byte(s))
		return append(b, `"}`...)
	}
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= 0x20 && c != '"' && c != '\\' {
			continue
		}
		b = append(b, s[start:i]...)
		switch c {
		case '"', '\\':
			b = append(b, '\\', c)
		case '\n':
			b = append(b, '\\', 'n')
		case '\t':
			b = append(b, '\\', 't')
		case '\r':
			b = append(b, '\\', 'r')
		default:
			b = append(b, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&15])
		}
		start = i + 1
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}

const hexDigits = "0123456789abcdef"

// appendTable writes t as an array, an object or a $table list.
func appendTable(b []byte, t *Table) ([]byte, error) {
	if len(t.Fields) == 0 {
		return append(b, "{}"...), nil
	}
	array, object := true, true
	for i, f := range t.Fields {
		if k, ok := f.Key.(float64); !ok || k != float64(i+1) || f.Value == nil {
			array = false
		}
		if k, ok := f.Key.(string); !ok || strings.HasPrefix(k, "$") || !utf8.ValidString(k) {
			object = false
		}
	}
	var err error
	switch {
	case array:
		b = append(b, '[')
		for i, f := range t.Fields {
			if i > 0 {
				b = append(b, ',')
			}
			if b, err = AppendPlainJSON(b, f.Value); err != nil {
				return nil, err
			}
		}
		return append(b, ']'), nil
	case object:
		b = append(b, '{')
		for i, f := range t.Fields {
			if i > 0 {
				b = append(b, ',')
			}
			b = appendString(b, f.Key.(string))
			b = append(b, ':')
			if b, err = AppendPlainJSON(b, f.Value); err != nil {
				return nil, err
			}
		}
		return append(b, '}'), nil
	}
	b = append(b, `{"$table":[`...)
	for i, f := range t.Fields {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, '[')
		if b, err = AppendPlainJSON(b, f.Key); err != nil {
			return nil, err
		}
		b = append(b, ',')
		if b, err = AppendPlainJSON(b, f.Value); err != nil {
			return nil, err
		}
		b = append(b, ']')
	}
	return append(b, "]}"...), nil
}
