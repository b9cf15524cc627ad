package runtime

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"math"
	"strconv"
	"strings"
	"unicode/utf8"
)

// ParsePlainJSON decodes plain data in the JSON form of PlainJSON,
// keeping the order of object keys. A malformed value, an unknown "$"
// tag, a key that is not a plain key or is given twice, or tables nested
// deeper than MaxPlainDepth is an error wrapping ErrBadSnapshot that names
// the path of the value and its byte offset.
func ParsePlainJSON(data []byte) (any, error) {
	return parsePlain(plainParser{data: data})
}

// ParsePlainJSONWithHoles is ParsePlainJSON for a script's self: a null
// value of an object's key or of a $table pair is kept, as a Field with a
// nil Value, in its place among the table's fields. It stands for a key
// the script removed, which gopher-lua keeps in the table's key list: set
// again, the key goes back to that place in pairs order.
func ParsePlainJSONWithHoles(data []byte) (any, error) {
	return parsePlain(plainParser{data: data, holes: true})
}

// ParsePlainJSONMembers is ParsePlainJSON for an object each of whose
// members is a value of its own, as the blackboard's keys are: the depth
// and the copy's bounds (MaxPlainNodes, MaxPlainBytes) apply to each
// member's value, not to the object whole, so that every value a
// blackboard key holds reads back.
func ParsePlainJSONMembers(data []byte) (any, error) {
	return parsePlain(plainParser{data: data, members: true})
}

func parsePlain(p plainParser) (any, error) {
	p.space()
	v, err := p.value(0)
	if err != nil {
		return nil, err
	}
	if p.space(); p.i != len(p.data) {
		return nil, p.fail("unexpected data after the value")
	}
	return v, nil
}

type plainParser struct {
	data  []byte
	i     int
	count PlainCount
	segs  []seg
	// holes keeps null values of keys as Fields with a nil Value.
	holes bool
	// members reads each member of the top object as a value of its own.
	members bool
}

// seg is one step of the path to the value being read: a key, or an
// array index when key is "" and n > 0.
type seg struct {
	key string
	n   int
	any any
}

// push and pop track the path to the value being read, for errors; the
// path is made into a string only when there is an error.
func (p *plainParser) push(s seg) { p.segs = append(p.segs, s) }
func (p *plainParser) pop()       { p.segs = p.segs[:len(p.segs)-1] }

// path names the value being read: a.b[2], or "the value" at the top.
func (p *plainParser) path() string {
	path := ""
	for _, s := range p.segs {
		switch {
		case s.any != nil:
			path = joinPath(path, s.any)
		case s.n > 0:
			path = fmt.Sprintf("%s[%d]", path, s.n)
		default:
			path = joinPath(path, s.key)
		}
	}
	if path == "" {
		return "the value"
	}
	return path
}

func (p *plainParser) fail(format string, args ...any) error {
	return fmt.Errorf("%w: %s (byte %d): %s", ErrBadSnapshot, p.path(), p.i, fmt.Sprintf(format, args...))
}

func (p *plainParser) space() {
	for p.i < len(p.data) {
		switch p.data[p.i] {
		case ' ', '\t', '\n', '\r':
			p.i++
		default:
			return
		}
	}
}

// peek returns the next byte, or 0 at the end.
func (p *plainParser) peek() byte {
	if p.i < len(p.data) {
		return p.data[p.i]
	}
	return 0
}

// expect consumes c (after white space) or fails.
func (p *plainParser) expect(c byte) error {
	p.space()
	switch p.peek() {
	case c:
	case 0:
		return p.fail("unexpected end of the snapshot, want %q", c)
	default:
		return p.fail("want %q, not %q", c, p.peek())
	}
	p.i++
	p.space()
	return nil
}

func (p *plainParser) value(depth int) (any, error) {
	if err := p.count.Add("", 0); err != nil {
		return nil, p.fail("more than %d values in one snapshot value", MaxPlainNodes)
	}
	switch c := p.peek(); {
	case c == '{':
		return p.object(depth)
	case c == '[':
		return p.array(depth)
	case c == '"':
		s, err := p.str()
		if err != nil {
			return nil, err
		}
		return s, p.countBytes(len(s))
	case c == 't' || c == 'f' || c == 'n':
		for _, lit := range []struct {
			s string
			v any
		}{{"true", true}, {"false", false}, {"null", nil}} {
			if strings.HasPrefix(string(p.data[p.i:min(len(p.data), p.i+5)]), lit.s) {
				p.i += len(lit.s)
				return lit.v, nil
			}
		}
	case c == '-' || (c >= '0' && c <= '9'):
		return p.number()
	case c == 0:
		return nil, p.fail("unexpected end of the snapshot")
	}
	return nil, p.fail("unexpected %q", p.peek())
}

// countBytes counts n bytes of strings (keys and values), as a copy of
// the value counts them, so that a value too large to copy is refused
// here rather than when the world is saved again.
func (p *plainParser) countBytes(n int) error {
	if p.count.Bytes += n; p.count.Bytes > MaxPlainBytes {
		return p.fail("more than %d MiB of strings in one snapshot value", MaxPlainBytes>>20)
	}
	return nil
}

func (p *plainParser) number() (any, error) {
	start := p.i
	for p.i < len(p.data) && strings.IndexByte("+-0123456789.eE", p.data[p.i]) >= 0 {
		p.i++
	}
	f, err := strconv.ParseFloat(string(p.data[start:p.i]), 64)
	if err != nil || math.IsInf(f, 0) {
		p.i = start
		return nil, p.fail("bad number %q", p.data[start:min(len(p.data), start+24)])
	}
	return f, nil
}

func (p *plainParser) str() (string, error) {
	start := p.i
	p.i++
	escaped := false
	for ; p.i < len(p.data); p.i++ {
		switch c := p.data[p.i]; {
		case c == '"':
			p.i++
			raw := p.data[start:p.i]
			if !escaped && utf8.Valid(raw) {
				return string(raw[1 : len(raw)-1]), nil
			}
			var s string
			if err := json.Unmarshal(raw, &s); err != nil {
				p.i = start
				return "", p.fail("bad string: %v", err)
			}
			return s, nil
		case c == '\\':
			escaped = true
			p.i++
		case c < 0x20:
			return "", p.fail("a control character in a string")
		}
	}
	p.i = start
	return "", p.fail("unterminated string")
}

func (p *plainParser) array(depth int) (any, error) {
	if depth >= MaxPlainDepth {
		return nil, p.fail("tables nested deeper than %d", MaxPlainDepth)
	}
	p.i++
	p.space()
	t := &Table{}
	for n := 1; p.peek() != ']'; n++ {
		if n > 1 {
			if err := p.expect(','); err != nil {
				return nil, err
			}
		}
		p.push(seg{n: n})
		v, err := p.value(depth + 1)
		p.pop()
		if err != nil {
			return nil, err
		}
		if v != nil {
			t.Fields = append(t.Fields, Field{Key: float64(n), Value: v})
		}
		p.space()
	}
	p.i++
	return t, nil
}

func (p *plainParser) object(depth int) (any, error) {
	objStart := p.i
	p.i++
	p.space()
	t := &Table{}
	keys := keySet{t: t}
	for first := true; p.peek() != '}'; first = false {
		if !first {
			if err := p.expect(','); err != nil {
				return nil, err
			}
		}
		if p.peek() != '"' {
			return nil, p.fail("want a key")
		}
		k, err := p.str()
		if err != nil {
			return nil, err
		}
		if err := p.expect(':'); err != nil {
			return nil, err
		}
		if strings.HasPrefix(k, "$") {
			if !first {
				return nil, p.fail("key %q: a \"$\" key must be an object's only key", k)
			}
			v, err := p.tagged(k, depth)
			if err != nil {
				return nil, err
			}
			if p.space(); p.peek() != '}' {
				return nil, p.fail("key %q: a \"$\" key must be an object's only key", k)
			}
			p.i++
			return v, nil
		}
		if depth >= MaxPlainDepth {
			p.i = objStart
			return nil, p.fail("tables nested deeper than %d", MaxPlainDepth)
		}
		var kv any = k
		if keys.dup(kv) {
			return nil, p.fail("key %q given twice", k)
		}
		p.push(seg{key: k})
		var v any
		if depth == 0 && p.members {
			p.count = PlainCount{}
			v, err = p.value(0)
		} else if err = p.countBytes(len(k)); err == nil {
			v, err = p.value(depth + 1)
		}
		p.pop()
		if err != nil {
			return nil, err
		}
		if v != nil || p.holes {
			if t.Fields == nil {
				t.Fields = make([]Field, 0, 4)
			}
			t.Fields = append(t.Fields, Field{Key: kv, Value: v})
		}
		p.space()
	}
	p.i++
	return t, nil
}

// tagged decodes the value of a "$" key.
func (p *plainParser) tagged(tag string, depth int) (any, error) {
	switch tag {
	case "$entity":
		s, err := p.strValue(tag)
		if err != nil {
			return nil, err
		}
		h, err := ParseHandleID(s)
		if err != nil {
			return nil, p.fail("%v", err)
		}
		return h, nil
	case "$number":
		s, err := p.strValue(tag)
		if err != nil {
			return nil, err
		}
		switch s {
		case "inf":
			return math.Inf(1), nil
		case "-inf":
			return math.Inf(-1), nil
		case "nan":
			return math.NaN(), nil
		case "-nan":
			return math.Copysign(math.NaN(), -1), nil
		}
		return nil, p.fail("$number %q (want \"inf\", \"-inf\", \"nan\" or \"-nan\")", s)
	case "$bytes":
		s, err := p.strValue(tag)
		if err != nil {
			return nil, err
		}
		b, err := base64.StdEncoding.DecodeString(s)
		if err != nil {
			return nil, p.fail("$bytes: %v", err)
		}
		return string(b), p.countBytes(len(b))
	case "$vec3":
		v, err := p.value(depth + 1)
		t, ok := v.(*Table)
		if err != nil {
			return nil, err
		}
		var xyz [3]float64
		if !ok || len(t.Fields) != 3 {
			return nil, p.fail("$vec3 wants [x, y, z]")
		}
		for i, f := range t.Fields {
			n, ok := f.Value.(float64)
			if !ok || f.Key != float64(i+1) {
				return nil, p.fail("$vec3 wants [x, y, z]")
			}
			xyz[i] = n
		}
		return Vec3{xyz[0], xyz[1], xyz[2]}, nil
	case "$table":
		return p.pairs(depth)
	}
	return nil, p.fail("unknown tag %q (a key starting with \"$\" is a tag: $entity, $number, $bytes, $vec3, $table)", tag)
}

func (p *plainParser) strValue(tag string) (string, error) {
	if p.peek() != '"' {
		return "", p.fail("%s wants a string", tag)
	}
	return p.str()
}

// pairs decodes the [[k, v], ...] list of a $table.
func (p *plainParser) pairs(depth int) (any, error) {
	if depth >= MaxPlainDepth {
		return nil, p.fail("tables nested deeper than %d", MaxPlainDepth)
	}
	if p.peek() != '[' {
		return nil, p.fail("$table wants a list of [key, value] pairs")
	}
	p.i++
	p.space()
	t := &Table{}
	keys := keySet{t: t}
	for first := true; p.peek() != ']'; first = false {
		if !first {
			if err := p.expect(','); err != nil {
				return nil, err
			}
		}
		if err := p.expect('['); err != nil {
			return nil, err
		}
		k, err := p.value(depth + 1)
		if err != nil {
			return nil, err
		}
		if !validKey(k) {
			return nil, p.fail("$table: a key must be a boolean, a number (not nan), a string or an entity, not %s", FormatPlain(k))
		}
		if keys.dup(k) {
			return nil, p.fail("$table: key %s given twice", FormatPlain(k))
		}
		if err := p.expect(','); err != nil {
			return nil, err
		}
		p.push(seg{any: k})
		v, err := p.value(depth + 1)
		p.pop()
		if err != nil {
			return nil, err
		}
		if err := p.expect(']'); err != nil {
			return nil, err
		}
		if v != nil || p.holes {
			t.Fields = append(t.Fields, Field{Key: k, Value: v})
		}
	}
	p.i++
	return t, nil
}

// keySet finds keys given twice in one table: by a scan while the
// table is small, by a map once it is not, so a table of n keys costs
// O(n).
type keySet struct {
	t *Table
	m map[any]bool
}

// dup reports whether k is among the table's keys so far, and records it.
func (ks *keySet) dup(k any) bool {
	if ks.m == nil && len(ks.t.Fields) < 16 {
		for _, f := range ks.t.Fields {
			if f.Key == k {
				return true
			}
		}
		return false
	}
	if ks.m == nil {
		ks.m = make(map[any]bool, 2*len(ks.t.Fields))
		for _, f := range ks.t.Fields {
			ks.m[f.Key] = true
		}
	}
	if ks.m[k] {
		return true
	}
	ks.m[k] = true
	return false
}
