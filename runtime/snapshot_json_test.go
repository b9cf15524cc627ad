package runtime

import (
	"math"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestPlainJSONForms: each kind of plain data has the JSON form
// docs/snapshot.md shows, and reads back to the same value.
func TestPlainJSONForms(t *testing.T) {
	tbl := func(fields ...Field) *Table { return &Table{Fields: fields} }
	cases := []struct {
		v    any
		json string
	}{
		{nil, `null`},
		{true, `true`},
		{0.1, `0.1`},
		{1e21, `1e+21`},
		{math.Copysign(0, -1), `-0`},
		{math.Inf(-1), `{"$number":"-inf"}`},
		{"a\"b\\\n\x01é", `"a\"b\\\n\u0001é"`},
		{"\xff", `{"$bytes":"/w=="}`},
		{Handle{3, 1}, `{"$entity":"3:1"}`},
		{Vec3{1, 2.5, math.Inf(1)}, `{"$vec3":[1,2.5,{"$number":"inf"}]}`},
		{tbl(), `{}`},
		{tbl(Field{1.0, "a"}, Field{2.0, "b"}), `["a","b"]`},
		{tbl(Field{"z", 1.0}, Field{"a", tbl()}), `{"z":1,"a":{}}`},
		{tbl(Field{"$x", 1.0}), `{"$table":[["$x",1]]}`},
		{tbl(Field{2.0, true}, Field{Handle{1, 2}, false}), `{"$table":[[2,true],[{"$entity":"1:2"},false]]}`},
	}
	for _, c := range cases {
		b, err := AppendPlainJSON(nil, c.v)
		require.NoError(t, err)
		assert.Equal(t, c.json, string(b))
		back, err := ParsePlainJSON(b)
		require.NoError(t, err)
		again, err := AppendPlainJSON(nil, back)
		require.NoError(t, err)
		assert.Equal(t, c.json, string(again))
	}
}

// TestPlainJSONErrors: malformed plain data is refused with the path.
func TestPlainJSONErrors(t *testing.T) {
	for src, want := range map[string]string{
		`{"a":{"$entity":"x"}}`:          `a (byte`,
		`{"a":1,"a":2}`:                  `key "a" given twice`,
		`{"$table":[[{},1]]}`:            `a key must be`,
		`{"$vec3":[1,2]}`:                `$vec3 wants [x, y, z]`,
		`{"x":1,"$number":"inf"}`:        `only key`,
		`{"$number":"big"}`:              `$number "big"`,
		`[1,2`:                           `unexpected end`,
		`{"a":1x}`:                       `want ',', not 'x'`,
		`"ab`:                            `unterminated string`,
		`{"$table":[["k",1],["k",2]]}`:   `given twice`,
		`{"$bytes":"***"}`:               `$bytes`,
		`{"$entity":"1:2","$vec3":[1]}`:  `only key`,
		`{"deep":` + deep(70) + `}`:      `nested deeper`,
		`[{"ok":true},{"bad":{"$x":1}}]`: `[2].bad`,
	} {
		_, err := ParsePlainJSON([]byte(src))
		require.Error(t, err, src)
		assert.ErrorIs(t, err, ErrBadSnapshot)
		assert.Contains(t, err.Error(), want, src)
	}
}

func deep(n int) string {
	s := "1"
	for range n {
		s = "[" + s + "]"
	}
	return s
}

// FuzzPlainJSON: any input is read or refused, never a panic; what is
// read is written back to a form that reads back to itself.
func FuzzPlainJSON(f *testing.F) {
	for _, seed := range []string{`null`, `[1,{"a":[true,false]}]`, `{"$table":[[1.5,"x"],[true,{"$entity":"2:3"}]]}`,
		`{"$vec3":[1,{"$number":"nan"},3]}`, `{"$bytes":"AAEC"}`, `"\ud83d\ude00"`, `-1.5e-300`} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, src string) {
		v, err := ParsePlainJSON([]byte(src))
		if err != nil {
			require.ErrorIs(t, err, ErrBadSnapshot)
			return
		}
		b, err := AppendPlainJSON(nil, v)
		require.NoError(t, err)
		back, err := ParsePlainJSON(b)
		require.NoError(t, err, "%s", b)
		again, err := AppendPlainJSON(nil, back)
		require.NoError(t, err)
		require.Equal(t, string(b), string(again))
	})
}

// TestPlainJSONHoles: a self's removed keys (Fields with a nil Value) are
// written as null in their places; ParsePlainJSONWithHoles keeps them,
// ParsePlainJSON drops them, and a table with a hole is never an array.
func TestPlainJSONHoles(t *testing.T) {
	tbl := func(fields ...Field) *Table { return &Table{Fields: fields} }
	cases := []struct {
		v       *Table
		json    string
		dropped string
	}{
		{tbl(Field{"a", 1.0}, Field{"b", nil}, Field{"c", 3.0}), `{"a":1,"b":null,"c":3}`, `{"a":1,"c":3}`},
		{tbl(Field{1.0, "x"}, Field{true, nil}), `{"$table":[[1,"x"],[true,null]]}`, `["x"]`},
		{tbl(Field{1.0, "x"}, Field{2.0, nil}), `{"$table":[[1,"x"],[2,null]]}`, `["x"]`},
		{tbl(Field{"t", tbl(Field{"y", nil}, Field{"z", 1.0})}), `{"t":{"y":null,"z":1}}`, `{"t":{"z":1}}`},
	}
	for _, c := range cases {
		b, err := AppendPlainJSON(nil, c.v)
		require.NoError(t, err)
		assert.Equal(t, c.json, string(b))
		back, err := ParsePlainJSONWithHoles(b)
		require.NoError(t, err)
		assert.Equal(t, c.v, back)
		plain, err := ParsePlainJSON(b)
		require.NoError(t, err)
		again, err := AppendPlainJSON(nil, plain)
		require.NoError(t, err)
		assert.Equal(t, c.dropped, string(again))
	}
}

// TestPlainJSONMembers: ParsePlainJSONMembers bounds each member of the
// object on its own, as the blackboard bounds each key: a member as deep
// and as large as one value may be reads back, which ParsePlainJSON,
// bounding the object whole, refuses.
func TestPlainJSONMembers(t *testing.T) {
	big := strings.Repeat("x", MaxPlainBytes/2+1)
	tests := []struct {
		name, src string
		whole     string // ParsePlainJSON's error
		members   string // ParsePlainJSONMembers's error ("": reads)
	}{
		{"a member of the deepest value", `{"k":` + deep(MaxPlainDepth) + `}`, "nested deeper", ""},
		{"a member deeper than that", `{"k":` + deep(MaxPlainDepth+1) + `}`, "nested deeper", "nested deeper"},
		{"two members of half the bytes each", `{"a":"` + big + `","b":"` + big + `"}`, "more than 64 MiB of strings", ""},
		{"one member of more than the bytes", `{"a":["` + big + `","` + big + `"]}`, "a[2] (byte", "a[2] (byte"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := ParsePlainJSON([]byte(tc.src))
			require.Error(t, err)
			assert.ErrorIs(t, err, ErrBadSnapshot)
			assert.Contains(t, err.Error(), tc.whole)
			v, err := ParsePlainJSONMembers([]byte(tc.src))
			if tc.members == "" {
				require.NoError(t, err)
				assert.IsType(t, &Table{}, v)
				return
			}
			require.Error(t, err)
			assert.ErrorIs(t, err, ErrBadSnapshot)
			assert.Contains(t, err.Error(), tc.members)
		})
	}
}

// TestPlainJSONNaNSign: a NaN keeps its sign across a snapshot, as Lua's
// tostring shows it ("-nan" and "nan").
func TestPlainJSONNaNSign(t *testing.T) {
	for _, neg := range []bool{false, true} {
		f := math.NaN()
		if neg {
			f = math.Copysign(f, -1)
		}
		b, err := AppendPlainJSON(nil, f)
		require.NoError(t, err)
		v, err := ParsePlainJSON(b)
		require.NoError(t, err)
		g, ok := v.(float64)
		require.True(t, ok)
		assert.True(t, math.IsNaN(g))
		assert.Equal(t, neg, math.Signbit(g), "%s", b)
	}
}
