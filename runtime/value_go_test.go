package runtime

import (
	"errors"
	"math"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

type itemID string

type loot struct {
	Name   string `json:"name"`
	Count  int    `json:"count,omitempty"`
	Secret string `json:"-"`
	//lint:ignore SA5008 a field named "-", as encoding/json reads this tag
	Dash   int               `json:"-,"`
	Tags   []string          `json:"tags,omitempty"`
	Stats  map[itemID]uint16 `json:"stats"`
	Owner  *Handle           `json:"owner"`
	Spot   Vec3
	hidden int
}

type base struct {
	ID   int64 `json:"id"`
	Kind string
}

type named struct{ Label string }

type monster struct {
	base
	*named
	Kind string // hides base.Kind
	HP   float32
}

type node struct {
	Name string
	Next *node
}

type pair struct{ A, B *loot }

type (
	flag   bool
	weight float32
	count  uint8
)

// omits has every kind of field omitempty leaves out when empty.
type omits struct {
	B flag           `json:"b,omitempty"`
	U count          `json:"u,omitempty"`
	F weight         `json:"f,omitempty"`
	P *int           `json:"p,omitempty"`
	I any            `json:"i,omitempty"`
	M map[string]int `json:"m,omitempty"`
	S struct{}       `json:"s,omitempty"`
	Z Vec3           `json:"z,omitzero"`
}

// chain embeds a pointer to itself: its fields are promoted once.
type chain struct {
	//lint:ignore U1000 the conversion reads the type, never the field
	*chain
	Link string
}

// tagWins has two fields named Kind at the same depth; the tagged one wins.
type tagWins struct {
	base
	kindTag
}

type kindTag struct {
	Label string `json:"Kind"`
}

// badText is a TextMarshaler that fails.
type badText struct{}

func (badText) MarshalText() ([]byte, error) { return nil, errors.New("no text") }

// placed has its handle and position in an unexported embedded struct,
// whose exported fields are promoted.
type placed struct {
	spot
	Name string
}

type spot struct {
	Owner Handle
	At    Vec3
	Tags  []any
}

// TestPlainGoValues: Go slices, maps with string keys and structs of any
// type are plain data as encoding/json would read them.
func TestPlainGoValues(t *testing.T) {
	h := Handle{Index: 4, Gen: 2}
	shared := &loot{Name: "gem"}
	tests := []struct {
		name string
		in   any
		want string
	}{
		{"slice of ints", []int{3, 1, 2}, "{3, 1, 2}"},
		{"array", [2]bool{true, false}, "{true, false}"},
		{"bytes are a string", []byte("abc"), `"abc"`},
		{"empty slice", []string{}, "{}"},
		{"nil slice", []string(nil), "{}"},
		{"slice of slices", [][]float32{{1.5}, {}}, "{{1.5}, {}}"},
		{"map of ints", map[string]int{"b": 2, "a": 1}, "{a=1, b=2}"},
		{"map with named string keys", map[itemID][]int{"sword": {1}}, "{sword={1}}"},
		{"named scalars", []any{itemID("x"), time.Duration(3)}, `{"x", 3}`},
		{"struct with tags", loot{Name: "sword", Secret: "s", Dash: 5, Stats: map[itemID]uint16{"atk": 3}, Owner: &h, Spot: Vec3{1, 2, 3}, hidden: 9},
			`{name="sword", -=5, stats={atk=3}, owner=entity(4:2), Spot=vec3(1, 2, 3)}`},
		{"omitempty keeps set values", loot{Name: "bow", Count: 2, Tags: []string{"ranged"}},
			`{name="bow", count=2, -=0, tags={"ranged"}, stats={}, Spot=vec3(0, 0, 0)}`},
		{"pointer to struct", &named{"n"}, `{Label="n"}`},
		{"nil pointer", (*loot)(nil), "nil"},
		{"embedded structs promoted, shallower wins", monster{base: base{ID: 7, Kind: "deep"}, named: &named{"orc"}, Kind: "shallow", HP: 2.5},
			`{id=7, Label="orc", Kind="shallow", HP=2.5}`},
		{"nil embedded pointer", monster{Kind: "k"}, `{id=0, Kind="k", HP=0}`},
		{"list of structs", []named{{"a"}, {"b"}}, `{{Label="a"}, {Label="b"}}`},
		{"shared pointer is no cycle", pair{shared, shared}, `{A={name="gem", -=0, stats={}, Spot=vec3(0, 0, 0)}, B={name="gem", -=0, stats={}, Spot=vec3(0, 0, 0)}}`},
		{"unexported embedded struct", placed{spot: spot{Owner: h, At: Vec3{1, 2, 3}, Tags: []any{"x", 2}}, Name: "p"},
			`{Owner=entity(4:2), At=vec3(1, 2, 3), Tags={"x", 2}, Name="p"}`},
		{"omitempty leaves out empty values", omits{}, "{s={}}"},
		{"omitempty keeps set values of every kind", omits{B: true, U: 1, F: 0.5, P: new(int), I: 0, M: map[string]int{"a": 1}, Z: Vec3{X: 1}},
			"{b=true, u=1, f=0.5, p=0, i=0, m={a=1}, s={}, z=vec3(1, 0, 0)}"},
		{"an embedded pointer to its own type", chain{Link: "a"}, `{Link="a"}`},
		{"a tagged field hides an untagged one as deep", tagWins{base: base{Kind: "untagged"}, kindTag: kindTag{"tagged"}}, `{id=0, Kind="tagged"}`},
		{"text marshaler", map[string]any{"at": time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)}, `{at="2026-01-02T03:04:05Z"}`},
		{"interface holding nil", []any{1, any(nil), map[string]any{"x": (*node)(nil)}}, "{1, [3]={}}"},
		{"largest exact integers", []any{int64(MaxExactInt), -MaxExactInt, uint64(MaxExactInt)}, "{9.007199254740992e+15, -9.007199254740992e+15, 9.007199254740992e+15}"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Plain(tt.in)
			require.NoError(t, err)
			assert.Equal(t, tt.want, FormatPlain(got))
		})
	}
}

// TestPlainGoValuesRefused: integers a Lua number cannot hold exactly and
// types with no plain form are errors that name the bad value's path.
func TestPlainGoValuesRefused(t *testing.T) {
	loop := &node{Name: "a"}
	loop.Next = &node{Name: "b", Next: loop}
	type list []any
	selfList := list{1, nil}
	selfList[1] = selfList
	type dict map[string]any
	selfDict := dict{}
	selfDict["me"] = selfDict
	type withChan struct {
		Items []any `json:"items"`
	}
	type kinded struct{ Kind string }
	type ambiguous struct {
		base
		kinded
		Other base
	}
	tests := []struct {
		name string
		in   any
		want string
	}{
		{"int past 2^53", 1<<53 + 1, "props: cannot store the integer 9007199254740993: a Lua number holds integers up to ±2^53 exactly"},
		{"int64 below -2^53", map[string]int64{"id": -1<<53 - 1}, "props.id: cannot store the integer -9007199254740993"},
		{"uint64", []uint64{math.MaxUint64}, "props[1]: cannot store the integer 18446744073709551615"},
		{"named int", []time.Duration{time.Duration(math.MaxInt64)}, "props[1]: cannot store the integer 9223372036854775807"},
		{"struct field int", base{ID: math.MaxInt64}, "props.id: cannot store the integer"},
		{"chan in a struct's slice", withChan{Items: []any{1, 2, make(chan int)}}, "props.items[3]: cannot store a value of type chan int"},
		{"func in a map", map[string]func(){"f": nil}, "props.f: cannot store a value of type func()"},
		{"map with int keys", map[string]map[int]string{"m": {}}, "props.m: cannot store a map[int]string: a map's keys must be strings"},
		{"pointer cycle", loop, "props.Next.Next: cannot store a cycle"},
		{"complex field", struct{ Z complex64 }{}, "props.Z: cannot store a value of type complex64"},
		{"named slice containing itself", selfList, "props[2]: cannot store a cycle"},
		{"named map containing itself", selfDict, "props.me: cannot store a cycle"},
		{"failing MarshalText", []badText{{}}, "props[1]: cannot store a runtime.badText whose MarshalText failed: no text"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := PlainAt("props", tt.in)
			require.Error(t, err)
			assert.Nil(t, got)
			assert.ErrorIs(t, err, ErrNotPlain)
			assert.Contains(t, err.Error(), tt.want)
		})
	}
	// Promoted fields equally deep under one name hide each other, as
	// in encoding/json: neither base.Kind nor kinded.Kind is kept.
	got, err := Plain(ambiguous{base: base{ID: 1, Kind: "x"}, kinded: kinded{"z"}, Other: base{Kind: "y"}})
	require.NoError(t, err)
	assert.Equal(t, `{id=1, Other={id=0, Kind="y"}}`, FormatPlain(got))
}

// TestPlainGoValuesBounded: a Go slice shared at 2^22 places is refused
// after a bounded walk, like a table.
func TestPlainGoValuesBounded(t *testing.T) {
	type dag struct{ A, B *dag }
	d := &dag{}
	for range 22 {
		d = &dag{d, d}
	}
	_, err := Plain(d)
	require.ErrorIs(t, err, ErrNotPlain)
	assert.Contains(t, err.Error(), "more than 1048576 values")
}

// BenchmarkPlain compares the copy of the same small record as a
// map[string]any (no reflection) and as a struct with json tags.
func BenchmarkPlain(b *testing.B) {
	type hit struct {
		Amount int      `json:"amount"`
		Kind   string   `json:"kind"`
		Crit   bool     `json:"crit,omitempty"`
		Tags   []string `json:"tags"`
	}
	tests := []struct {
		name string
		v    any
	}{
		{"MapAny", map[string]any{"amount": 3, "kind": "fire", "tags": []any{"a", "b"}}},
		{"Struct", hit{Amount: 3, Kind: "fire", Tags: []string{"a", "b"}}},
	}
	for _, tt := range tests {
		b.Run(tt.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				if _, err := Plain(tt.v); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
