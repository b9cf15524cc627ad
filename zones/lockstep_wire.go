package zones

import (
	"encoding/binary"
	"encoding/json"
	"errors"
	"math"

	"github.com/luahost/luahost/luabind"
	"github.com/luahost/luahost/runtime"
)

// The second round of a frame in lockstep carries every entity of the
// world's committed state, every frame, to every zone: it is binary,
// not JSON, which costs several times as much to read. A zone's part is
// the JSON of the parcels it could not take (a length, then the JSON;
// nothing most frames), then its entities: their count, and for each its
// identity, name, tags and scripts (each string a length, then its
// bytes), and its transform's nine numbers as IEEE 754 bits.

// maxNames bounds the strings a viewReader keeps.
const maxNames = 1 << 16

// errShortView is the error of a view part that ends too soon.
var errShortView = errors.New("a view part ends too soon")

// appendView appends the wire form of a zone's part of the second round
// to b.
func appendView(b []byte, seen []luabind.ViewEntity, bounced []wireParcel) ([]byte, error) {
	var js []byte
	if len(bounced) > 0 {
		var err error
		if js, err = json.Marshal(bounced); err != nil {
			return nil, err
		}
	}
	b = binary.AppendUvarint(b, uint64(len(js)))
	b = append(b, js...)
	b = binary.AppendUvarint(b, uint64(len(seen)))
	for i := range seen {
		e := &seen[i]
		b = binary.AppendUvarint(b, e.ID)
		b = appendString(b, e.Name)
		b = appendStrings(b, e.Tags)
		b = appendStrings(b, e.Scripts)
		t := &e.Transform
		for _, v := range [...]runtime.Vec3{t.Position, t.Rotation, t.Scale} {
			b = binary.LittleEndian.AppendUint64(b, math.Float64bits(v.X))
			b = binary.LittleEndian.AppendUint64(b, math.Float64bits(v.Y))
			b = binary.LittleEndian.AppendUint64(b, math.Float64bits(v.Z))
		}
	}
	return b, nil
}

func appendString(b []byte, s string) []byte {
	b = binary.AppendUvarint(b, uint64(len(s)))
	return append(b, s...)
}

func appendStrings(b []byte, ss []string) []byte {
	b = binary.AppendUvarint(b, uint64(len(ss)))
	for _, s := range ss {
		b = appendString(b, s)
	}
	return b
}

// viewReader reads the wire form of view parts; names keeps the strings
// read, so that the names, tags and scripts every frame repeats are
// allocated once.
type viewReader struct {
	b     []byte
	err   error
	names map[string]string
}

// readView reads zone's part of the second round from data: it appends
// its entities to dst and returns the parcels it could not take.
func (r *viewReader) readView(dst []luabind.ViewEntity, data []byte, zone int) ([]luabind.ViewEntity, []wireParcel, error) {
	r.b, r.err = data, nil
	if len(r.names) > maxNames {
		// Names of entities long gone: start again.
		clear(r.names)
	}
	var bounced []wireParcel
	if js := r.bytes(); len(js) > 0 && r.err == nil {
		if err := json.Unmarshal(js, &bounced); err != nil {
			return dst, nil, err
		}
	}
	n := r.uvarint()
	for i := uint64(0); i < n && r.err == nil; i++ {
		e := luabind.ViewEntity{ID: r.uvarint(), Zone: zone, Name: r.string(), Tags: r.strings(), Scripts: r.strings()}
		t := &e.Transform
		for _, v := range [...]*runtime.Vec3{&t.Position, &t.Rotation, &t.Scale} {
			v.X, v.Y, v.Z = r.float(), r.float(), r.float()
		}
		dst = append(dst, e)
	}
	if r.err == nil && len(r.b) > 0 {
		r.err = errors.New("a view part goes on past its entities")
	}
	return dst, bounced, r.err
}

func (r *viewReader) uvarint() uint64 {
	if r.err != nil {
		return 0
	}
	v, n := binary.Uvarint(r.b)
	if n <= 0 {
		r.err = errShortView
		return 0
	}
	r.b = r.b[n:]
	return v
}

func (r *viewReader) bytes() []byte {
	n := r.uvarint()
	if r.err != nil || n > uint64(len(r.b)) {
		r.err = errShortView
		return nil
	}
	s := r.b[:n]
	r.b = r.b[n:]
	return s
}

func (r *viewReader) string() string {
	s := r.bytes()
	if len(s) == 0 {
		return ""
	}
	if v, ok := r.names[string(s)]; ok {
		return v
	}
	v := string(s)
	if r.names == nil {
		r.names = make(map[string]string)
	}
	r.names[v] = v
	return v
}

func (r *viewReader) strings() []string {
	n := r.uvarint()
	if n == 0 || r.err != nil {
		return nil
	}
	if n > uint64(len(r.b)) {
		r.err = errShortView
		return nil
	}
	ss := make([]string, n)
	for i := range ss {
		ss[i] = r.string()
	}
	return ss
}

func (r *viewReader) float() float64 {
	if r.err != nil || len(r.b) < 8 {
		r.err = errShortView
		return 0
	}
	v := math.Float64frombits(binary.LittleEndian.Uint64(r.b))
	r.b = r.b[8:]
	return v
}
