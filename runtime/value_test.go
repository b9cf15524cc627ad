package runtime

import (
	"math"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestPlainScalars(t *testing.T) {
	h := Handle{Index: 3, Gen: 1}
	tests := []struct {
		name string
		in   any
		want any
	}{
		{"nil", nil, nil},
		{"bool", true, true},
		{"string", "s", "s"},
		{"handle", h, h},
		{"vector", Vec3{1, 2, 3}, Vec3{1, 2, 3}},
		{"float64", 1.5, 1.5},
		{"float32", float32(2.5), 2.5},
		{"int", -3, -3.0},
		{"int8", int8(-8), -8.0},
		{"int16", int16(16), 16.0},
		{"int32", int32(32), 32.0},
		{"int64", int64(64), 64.0},
		{"uint", uint(1), 1.0},
		{"uint8", uint8(8), 8.0},
		{"uint16", uint16(16), 16.0},
		{"uint32", uint32(32), 32.0},
		{"uint64", uint64(64), 64.0},
		{"nil table", (*Table)(nil), nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Plain(tt.in)
			require.NoError(t, err)
			assert.Equal(t, tt.want, got)
		})
	}
}

func TestPlainMapKeysSorted(t *testing.T) {
	m := map[string]any{"zeta": 1, "alpha": 2, "mu": 3, "beta": 4, "omega": 5, "gamma": 6}
	for range 20 { // map iteration order varies; the result must not
		got, err := Plain(m)
		require.NoError(t, err)
		tbl := got.(*Table)
		var keys []string
		for _, f := range tbl.Fields {
			keys = append(keys, f.Key.(string))
		}
		require.Equal(t, []string{"alpha", "beta", "gamma", "mu", "omega", "zeta"}, keys)
	}
}

func TestPlainSlice(t *testing.T) {
	got, err := Plain([]any{"a", nil, 3, []any{true}})
	require.NoError(t, err)
	tbl := got.(*Table)
	assert.Equal(t, `{"a", [3]=3, [4]={true}}`, FormatPlain(tbl), "nil elements leave holes, as in Lua")
	assert.Equal(t, 1, tbl.Len())
	assert.Equal(t, "a", tbl.Get(1), "integer keys are looked up as numbers")
	assert.Equal(t, 3.0, tbl.Get(3.0))
	assert.Nil(t, tbl.Get(2))
	assert.Nil(t, tbl.Get("missing"))
}

func TestPlainDropsNilFields(t *testing.T) {
	got, err := Plain(map[string]any{"a": nil, "b": 1})
	require.NoError(t, err)
	assert.Equal(t, "{b=1}", FormatPlain(got))
}

func TestPlainCopiesTables(t *testing.T) {
	inner := &Table{Fields: []Field{{Key: "x", Value: 1.0}}}
	outer := Table{Fields: []Field{{Key: 1, Value: inner}, {Key: "s", Value: "v"}}}
	got, err := Plain(outer)
	require.NoError(t, err)
	cp := got.(*Table)
	assert.Equal(t, `{{x=1}, s="v"}`, FormatPlain(cp))
	assert.Equal(t, 1.0, cp.Fields[0].Key, "keys are canonical")
	assert.NotSame(t, inner, cp.Fields[0].Value, "deep copy")
	inner.Fields[0].Value = 2.0
	assert.Equal(t, `{{x=1}, s="v"}`, FormatPlain(cp))
}

func TestPlainSharedIsNotCycle(t *testing.T) {
	shared := map[string]any{"x": 1}
	list := []any{shared, shared}
	got, err := Plain(map[string]any{"a": shared, "b": shared, "l": list, "m": list})
	require.NoError(t, err, "a value reached twice is not a cycle")
	assert.Equal(t, "{a={x=1}, b={x=1}, l={{x=1}, {x=1}}, m={{x=1}, {x=1}}}", FormatPlain(got))

	// Slices of one array with different lengths are different values.
	arr := make([]any, 2)
	arr[0] = 1
	arr[1] = arr[:1]
	got, err = Plain(arr)
	require.NoError(t, err)
	assert.Equal(t, "{1, {1}}", FormatPlain(got))
}

func TestPlainRefuses(t *testing.T) {
	cyclic := map[string]any{}
	cyclic["a"] = map[string]any{"b": cyclic}
	deep := any(1.0)
	for range MaxPlainDepth + 1 {
		deep = []any{deep}
	}
	tests := []struct {
		name string
		in   any
		want string
	}{
		{"function", func() {}, "not plain data: cannot store a value of type func()"},
		{"channel", make(chan int), "not plain data: cannot store a value of type chan int"},
		{"complex", 1i, "cannot store a value of type complex128"},
		{"map with int keys", map[int]any{1: 2}, "cannot store a map[int]interface {}: a map's keys must be strings"},
		{"nested", map[string]any{"a": map[string]any{"b": []any{1, func() {}}}}, "not plain data: a.b[2]: cannot store a value of type func()"},
		{"indirect cycle", cyclic, "not plain data: a.b: cannot store a cycle"},
		{"too deep", deep, "cannot store tables nested deeper than 64"},
		{"bad key", &Table{Fields: []Field{{Key: []int{1}, Value: 1}}}, "cannot store a key of type []int"},
		{"NaN key", &Table{Fields: []Field{{Key: math.NaN(), Value: 1}}}, "cannot store a key of type float64"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Plain(tt.in)
			require.Error(t, err)
			assert.Nil(t, got)
			assert.ErrorIs(t, err, ErrNotPlain)
			assert.Contains(t, err.Error(), tt.want)
		})
	}
}

func TestPlainAtDepthLimit(t *testing.T) {
	v := any("leaf")
	for range MaxPlainDepth {
		v = []any{v}
	}
	got, err := Plain(v)
	require.NoError(t, err, "exactly MaxPlainDepth levels are allowed")
	assert.Equal(t, strings.Repeat("{", MaxPlainDepth)+`"leaf"`+strings.Repeat("}", MaxPlainDepth), FormatPlain(got))
}

func TestFormatPlain(t *testing.T) {
	h := Handle{Index: 2, Gen: 5}
	tests := []struct {
		in   any
		want string
	}{
		{nil, "nil"},
		{true, "true"},
		{1.5, "1.5"},
		{"s", `"s"`},
		{h, "entity(2:5)"},
		{&Table{}, "{}"},
		{&Table{Fields: []Field{{Key: 1.0, Value: 1.0}, {Key: 2.0, Value: 2.0}, {Key: "hp", Value: 7.0}}}, "{1, 2, hp=7}"},
		{&Table{Fields: []Field{{Key: 2.0, Value: "x"}}}, `{[2]="x"}`},
		{&Table{Fields: []Field{{Key: true, Value: 1.0}, {Key: h, Value: 2.0}}}, "{[true]=1, [entity(2:5)]=2}"},
	}
	for _, tt := range tests {
		t.Run(tt.want, func(t *testing.T) {
			assert.Equal(t, tt.want, FormatPlain(tt.in))
		})
	}
}

// TestPlainBounded: a Go value shared at 2^22 places is refused after a
// bounded walk, a shared value within the bounds is
// copied at each place, and a string past MaxPlainBytes is refused.
func TestPlainBounded(t *testing.T) {
	dag := func(n int) any {
		var v any = map[string]any{}
		for range n {
			v = map[string]any{"a": v, "b": v}
		}
		return v
	}
	_, err := Plain(dag(22))
	require.ErrorIs(t, err, ErrNotPlain)
	assert.Contains(t, err.Error(), "more than 1048576 values or 64 MiB in one copy")

	small, err := Plain(dag(4))
	require.NoError(t, err)
	assert.Equal(t, "{a={a={a={a={}, b={}}, b={a={}, b={}}}, b={a={a={}, b={}}, b={a={}, b={}}}}, b={a={a={a={}, b={}}, b={a={}, b={}}}, b={a={a={}, b={}}, b={a={}, b={}}}}}", FormatPlain(small))

	big := strings.Repeat("x", 1<<20)
	list := make([]any, 65)
	for i := range list {
		list[i] = big
	}
	_, err = Plain(list)
	assert.ErrorIs(t, err, ErrNotPlain, "65 MiB of strings")
}

// TestFormatPlainVector: a vector formats as the Lua constructor call.
func TestFormatPlainVector(t *testing.T) {
	p, err := Plain(map[string]any{"at": Vec3{1, -2.5, 0}})
	require.NoError(t, err)
	assert.Equal(t, "{at=vec3(1, -2.5, 0)}", FormatPlain(p))
}
