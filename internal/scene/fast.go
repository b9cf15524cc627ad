package scene

import (
	"encoding/json"
	"strconv"
)

// fastDecode decodes a scene in one pass over data (its byte order mark
// removed, its UTF-8 checked), without tokens, reflection or intermediate
// values. It takes a subset of what the strict path (checkShape, then
// encoding/json) takes, into the same values: an object with "scripts",
// "seed", "blackboard" and "entities", each entity's vectors exactly three
// numbers, no nulls outside plain data, no duplicate key, no escaped key,
// at most MaxEntities entities, nothing after the object. Anything else —
// every error, and also a scene with zones — reports false, and decode
// reads the scene again the strict way, which is slower but gives every
// message its place.
func fastDecode(data []byte) (*Scene, bool) {
	d := &fastDec{data: data}
	sc := d.scene()
	d.ws()
	if d.bad || d.i != len(d.data) {
		return nil, false
	}
	return sc, true
}

// fastDec is fastDecode's cursor; bad is set at the first thing it does
// not take, after which every method returns zero values.
type fastDec struct {
	data  []byte
	i     int
	bad   bool
	depth int
	// vecs and scripts are blocks that vectors and the entities' script
	// lists are cut from, so that a million entities make a few thousand
	// allocations instead of two million; list is where an entity's
	// scripts are read before they are cut.
	vecs    [][3]float64
	scripts []Script
	list    []Script
}

// fastBlock is the number of vectors or scripts of a block.
const fastBlock = 1024

// maxFastDepth is the deepest plain data fastDecode reads; deeper data is
// left to the strict path, whose decoder has its own limit.
const maxFastDepth = 200

func (d *fastDec) ws() {
	for d.i < len(d.data) {
		switch d.data[d.i] {
		case ' ', '\t', '\n', '\r':
			d.i++
		default:
			return
		}
	}
}

// peek returns the next byte after white space, 0 at the end.
func (d *fastDec) peek() byte {
	d.ws()
	if d.i < len(d.data) {
		return d.data[d.i]
	}
	return 0
}

// eat consumes c if it comes next.
func (d *fastDec) eat(c byte) bool {
	if !d.bad && d.peek() == c {
		d.i++
		return true
	}
	return false
}

// more reads what follows a member or element of a container closed by
// end: true when another follows (a comma), false at the end.
func (d *fastDec) more(end byte) bool {
	switch {
	case d.eat(','):
		return true
	case d.eat(end):
		return false
	}
	d.bad = true
	return false
}

// object reads an object, calling member for each key with the value
// next; keys are bits of seen, so that a duplicate is refused. Escaped
// keys are refused too.
func (d *fastDec) object(member func(key []byte)) {
	if !d.eat('{') {
		d.bad = true
		return
	}
	if d.eat('}') {
		return
	}
	for !d.bad {
		key, ok := d.rawString()
		if !ok || !d.eat(':') {
			d.bad = true
			return
		}
		member(key)
		if !d.more('}') {
			return
		}
	}
}

// fields reads an object whose keys must be among names, each at most
// once, calling member with the key's index.
func (d *fastDec) fields(names []string, member func(int)) {
	var seen uint32
	d.object(func(key []byte) {
		for n, name := range names {
			if string(key) == name {
				if seen&(1<<n) != 0 {
					break
				}
				seen |= 1 << n
				member(n)
				return
			}
		}
		d.bad = true
	})
}

// array reads an array, calling elem for each element.
func (d *fastDec) array(elem func()) {
	if !d.eat('[') {
		d.bad = true
		return
	}
	if d.eat(']') {
		return
	}
	for !d.bad {
		elem()
		if !d.more(']') {
			return
		}
	}
}

// rawString reads a string without escapes and returns its bytes; false
// for an escaped one (and anything but a string).
func (d *fastDec) rawString() ([]byte, bool) {
	if d.bad || d.peek() != '"' {
		return nil, false
	}
	start := d.i + 1
	for j := start; j < len(d.data); j++ {
		switch c := d.data[j]; {
		case c == '"':
			d.i = j + 1
			return d.data[start:j], true
		case c == '\\' || c < 0x20:
			return nil, false
		}
	}
	return nil, false
}

// string reads a string value; one with escapes is decoded by
// encoding/json.
func (d *fastDec) string() string {
	if raw, ok := d.rawString(); ok {
		return string(raw)
	}
	if d.bad || d.peek() != '"' {
		d.bad = true
		return ""
	}
	start := d.i
	for j := start + 1; j < len(d.data); j++ {
		switch c := d.data[j]; {
		case c == '\\':
			j++
		case c < 0x20:
			d.bad = true
			return ""
		case c == '"':
			var s string
			if json.Unmarshal(d.data[start:j+1], &s) != nil {
				d.bad = true
				return ""
			}
			d.i = j + 1
			return s
		}
	}
	d.bad = true
	return ""
}

// numberText reads a number as JSON writes it and returns its text.
func (d *fastDec) numberText() []byte {
	d.ws()
	start, j := d.i, d.i
	digits := func() int {
		k := j
		for j < len(d.data) && d.data[j] >= '0' && d.data[j] <= '9' {
			j++
		}
		return j - k
	}
	if j < len(d.data) && d.data[j] == '-' {
		j++
	}
	switch n := digits(); {
	case n == 0, n > 1 && d.data[start] == '0', n > 1 && d.data[start] == '-' && d.data[start+1] == '0':
		d.bad = true
		return nil
	}
	if j < len(d.data) && d.data[j] == '.' {
		j++
		if digits() == 0 {
			d.bad = true
			return nil
		}
	}
	if j < len(d.data) && (d.data[j] == 'e' || d.data[j] == 'E') {
		j++
		if j < len(d.data) && (d.data[j] == '+' || d.data[j] == '-') {
			j++
		}
		if digits() == 0 {
			d.bad = true
			return nil
		}
	}
	d.i = j
	return d.data[start:j]
}

// number reads a number as encoding/json decodes it into a float64. Short
// integers, the common case, are converted here, exactly.
func (d *fastDec) number() float64 {
	text := d.numberText()
	if d.bad {
		return 0
	}
	if len(text) <= 15 {
		neg, digits := false, text
		if digits[0] == '-' {
			neg, digits = true, digits[1:]
		}
		var n int64
		integer := true
		for _, c := range digits {
			if c < '0' || c > '9' {
				integer = false
				break
			}
			n = n*10 + int64(c-'0')
		}
		if integer {
			if neg {
				// -0 is a float's negative zero, as ParseFloat makes it.
				return -float64(n)
			}
			return float64(n)
		}
	}
	f, err := strconv.ParseFloat(string(text), 64)
	if err != nil {
		d.bad = true
	}
	return f
}

// vector reads exactly three numbers.
func (d *fastDec) vector() *[3]float64 {
	if len(d.vecs) == 0 {
		d.vecs = make([][3]float64, fastBlock)
	}
	v := &d.vecs[0]
	d.vecs = d.vecs[1:]
	n := 0
	d.array(func() {
		if n == 3 {
			d.bad = true
			return
		}
		v[n] = d.number()
		n++
	})
	if n != 3 {
		d.bad = true
	}
	return v
}

// elements counts the elements of the array that comes next, by a scan
// that only matches brackets and skips strings: checking is the decode's
// work, and the count of an array it refuses only sizes a slice.
func (d *fastDec) elements() int {
	data := d.data
	depth, n := 0, 1
	for j := d.i; j < len(data); j++ {
		switch data[j] {
		case '"':
			for j++; j < len(data) && data[j] != '"'; j++ {
				if data[j] == '\\' {
					j++
				}
			}
		case '[', '{':
			depth++
		case ']', '}':
			if depth--; depth == 0 {
				return n
			}
		case ',':
			if depth == 1 {
				n++
			}
		}
	}
	return n
}

// plain reads any JSON value as encoding/json decodes it into an any.
func (d *fastDec) plain() any {
	if d.depth++; d.depth > maxFastDepth {
		d.bad = true
	}
	defer func() { d.depth-- }()
	switch c := d.peek(); c {
	case '{':
		return d.plainObject()
	case '[':
		list := []any{}
		d.array(func() { list = append(list, d.plain()) })
		return list
	case '"':
		return d.string()
	case 't':
		return d.word("true", true)
	case 'f':
		return d.word("false", false)
	case 'n':
		return d.word("null", nil)
	default:
		return d.number()
	}
}

// plainObject reads an object of plain data; a duplicate key is refused.
func (d *fastDec) plainObject() map[string]any {
	m := map[string]any{}
	d.object(func(key []byte) {
		if _, dup := m[string(key)]; dup {
			d.bad = true
			return
		}
		m[string(key)] = d.plain()
	})
	return m
}

// word reads the literal w, whose value is v.
func (d *fastDec) word(w string, v any) any {
	if len(d.data)-d.i < len(w) || string(d.data[d.i:d.i+len(w)]) != w {
		d.bad = true
		return nil
	}
	d.i += len(w)
	return v
}

var (
	sceneFields  = []string{"scripts", "seed", "blackboard", "entities"}
	entityFields = []string{"name", "position", "rotation", "scale", "tags", "scripts"}
	scriptFields = []string{"script", "props"}
)

func (d *fastDec) scene() *Scene {
	sc := &Scene{}
	d.fields(sceneFields, func(n int) {
		switch n {
		case 0:
			s := d.string()
			sc.Scripts = &s
		case 1:
			seed, err := strconv.ParseInt(string(d.numberText()), 10, 64)
			if err != nil {
				d.bad = true
			}
			sc.Seed = &seed
		case 2:
			if d.peek() != '{' {
				d.bad = true
				return
			}
			sc.Blackboard = d.plainObject()
		case 3:
			// Sized once: grown by append, the list of a million
			// entities would be copied a dozen times, and the copies
			// left for the collector would weigh several times the
			// list.
			sc.Entities = make([]Entity, 0, min(d.elements(), MaxEntities))
			d.array(func() {
				if len(sc.Entities) == MaxEntities {
					d.bad = true
					return
				}
				sc.Entities = append(sc.Entities, Entity{})
				d.entity(&sc.Entities[len(sc.Entities)-1])
			})
		}
	})
	return sc
}

func (d *fastDec) entity(e *Entity) {
	d.fields(entityFields, func(n int) {
		switch n {
		case 0:
			e.Name = d.string()
		case 1:
			e.Position = d.vector()
		case 2:
			e.Rotation = d.vector()
		case 3:
			e.Scale = d.vector()
		case 4:
			e.Tags = []string{}
			d.array(func() {
				if d.peek() != '"' {
					d.bad = true
					return
				}
				e.Tags = append(e.Tags, d.string())
			})
		case 5:
			d.list = d.list[:0]
			d.array(func() { d.list = append(d.list, d.script()) })
			e.Scripts = d.cut(d.list)
		}
	})
}

// cut returns a copy of list in a block, its capacity its length so that
// an append copies it out.
func (d *fastDec) cut(list []Script) []Script {
	if len(list) == 0 {
		return []Script{}
	}
	if cap(d.scripts)-len(d.scripts) < len(list) {
		d.scripts = make([]Script, 0, max(fastBlock, len(list)))
	}
	n := len(d.scripts)
	d.scripts = append(d.scripts, list...)
	return d.scripts[n:len(d.scripts):len(d.scripts)]
}

// script reads a script entry: a name, or {"script": name, "props": {...}}.
func (d *fastDec) script() Script {
	var s Script
	if d.peek() == '"' {
		s.Script = d.string()
	} else {
		d.fields(scriptFields, func(n int) {
			if n == 0 {
				s.Script = d.string()
				return
			}
			if d.peek() != '{' {
				d.bad = true
				return
			}
			s.Props = d.plainObject()
		})
	}
	if s.Script == "" {
		d.bad = true
	}
	return s
}
