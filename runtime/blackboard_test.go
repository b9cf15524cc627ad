package runtime

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestBlackboardScalars(t *testing.T) {
	rt, _ := newTestRuntime(t, Options{})
	bb := rt.Blackboard()
	h := spawnActive(t, rt, "")
	tests := []struct {
		key  string
		in   any
		want any
	}{
		{"flag", true, true},
		{"hp", 7, 7.0},
		{"ratio", float32(0.5), 0.5},
		{"big", uint64(1 << 40), float64(1 << 40)},
		{"name", "chest", "chest"},
		{"target", h, h},
	}
	for _, tt := range tests {
		t.Run(tt.key, func(t *testing.T) {
			require.NoError(t, bb.Set(tt.key, tt.in))
			got, ok := bb.Get(tt.key)
			require.True(t, ok)
			assert.Equal(t, tt.want, got)
		})
	}
	_, ok := bb.Get("missing")
	assert.False(t, ok)
}

func TestBlackboardCopyInCopyOut(t *testing.T) {
	rt, _ := newTestRuntime(t, Options{})
	bb := rt.Blackboard()
	inner := map[string]any{"x": 1}
	src := map[string]any{"hp": 7, "pos": inner, "list": []any{"a", "b"}}
	require.NoError(t, bb.Set("state", src))

	// Copy in: changing what was stored changes nothing.
	src["hp"] = 0
	inner["x"] = 99
	src["list"].([]any)[0] = "zzz"

	want := "{hp=7, list={\"a\", \"b\"}, pos={x=1}}"
	got, ok := bb.Get("state")
	require.True(t, ok)
	tbl, ok := got.(*Table)
	require.True(t, ok, "tables come out as *Table")
	assert.Equal(t, want, FormatPlain(tbl))

	// Copy out: changing what was read changes nothing.
	tbl.Fields[0].Value = 0.0
	tbl.Get("pos").(*Table).Fields[0].Value = 42.0
	tbl.Fields = append(tbl.Fields, Field{Key: "extra", Value: true})

	again, _ := bb.Get("state")
	assert.Equal(t, want, FormatPlain(again))
	assert.NotSame(t, tbl, again)

	// A stored *Table is copied in as well.
	mine := &Table{Fields: []Field{{Key: "k", Value: "v"}}}
	require.NoError(t, bb.Set("table", mine))
	mine.Fields[0].Value = "changed"
	stored, _ := bb.Get("table")
	assert.Equal(t, `{k="v"}`, FormatPlain(stored))
}

func TestBlackboardNilDeletes(t *testing.T) {
	rt, _ := newTestRuntime(t, Options{})
	bb := rt.Blackboard()
	require.NoError(t, bb.Set("a", 1))
	require.NoError(t, bb.Set("b", 2))
	require.NoError(t, bb.Set("a", nil))
	_, ok := bb.Get("a")
	assert.False(t, ok)
	assert.Equal(t, []string{"b"}, bb.Keys())
	assert.Equal(t, 1, bb.Len())
	require.NoError(t, bb.Set("never-set", nil), "deleting a missing key is fine")

	require.NoError(t, bb.Set("b", (*Table)(nil)))
	assert.Zero(t, bb.Len(), "a nil *Table deletes too")

	bb.SetPlain("c", 3.0)
	bb.SetPlain("c", nil)
	assert.Zero(t, bb.Len())
}

func TestBlackboardRefusesNonPlain(t *testing.T) {
	cyclic := map[string]any{"hp": 1}
	cyclic["self"] = cyclic
	deep := map[string]any{"list": []any{1, 2, map[string]any{"cb": func() {}}}}
	loop := &Table{}
	loop.Fields = []Field{{Key: "me", Value: loop}}
	selfList := []any{nil}
	selfList[0] = selfList

	tests := []struct {
		name string
		v    any
		path string // the bad value's path inside the value, named in the error
		what string
	}{
		{"function", func() {}, "", "func()"},
		{"channel", make(chan int), "", "chan int"},
		{"struct with a channel", struct{ C chan int }{}, "C", "chan int"},
		{"inexact integer", []int64{1, 1<<53 + 1}, "[2]", "the integer 9007199254740993"},
		{"nested function", deep, "list[3].cb", "func()"},
		{"map containing itself", cyclic, "self", "a cycle"},
		{"table containing itself", loop, "me", "a cycle"},
		{"slice containing itself", selfList, "[1]", "a cycle"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rt, _ := newTestRuntime(t, Options{})
			bb := rt.Blackboard()
			require.NoError(t, bb.Set("k", "before"))
			require.NoError(t, bb.Set("other", 1))

			err := bb.Set("k", tt.v)
			require.Error(t, err)
			assert.ErrorIs(t, err, ErrNotPlain)
			assert.Contains(t, err.Error(), `blackboard key "k"`)
			assert.Contains(t, err.Error(), tt.path)
			assert.Contains(t, err.Error(), tt.what)

			got, ok := bb.Get("k")
			require.True(t, ok)
			assert.Equal(t, "before", got, "a refused Set changes nothing")
			assert.Equal(t, []string{"k", "other"}, bb.Keys())

			require.Error(t, bb.Set("fresh", tt.v))
			_, ok = bb.Get("fresh")
			assert.False(t, ok)
		})
	}
}

func TestBlackboardKeysSorted(t *testing.T) {
	rt, _ := newTestRuntime(t, Options{})
	bb := rt.Blackboard()
	for _, k := range []string{"zeta", "alpha", "mu", "Beta", "alpha2"} {
		require.NoError(t, bb.Set(k, k))
	}
	assert.Equal(t, []string{"Beta", "alpha", "alpha2", "mu", "zeta"}, bb.Keys())
	assert.Equal(t, 5, bb.Len())
}

func TestBlackboardSharedAcrossScripts(t *testing.T) {
	rt, _ := newTestRuntime(t, Options{})
	log := &recorder{}
	writer := &testScript{name: "writer", log: log, update: func(*Instance, float64) error {
		return rt.Blackboard().Set("tick", rt.Frame())
	}}
	reader := &testScript{name: "reader", prio: 1, log: log, update: func(*Instance, float64) error {
		v, _ := rt.Blackboard().Get("tick")
		log.add("tick %v", v)
		return nil
	}}
	attach(t, rt, spawnActive(t, rt, ""), reader, "reader")
	attach(t, rt, spawnActive(t, rt, ""), writer, "writer")
	log.take()
	step(t, rt, 1)
	step(t, rt, 1)
	assert.Equal(t, []string{"update writer", "update reader", "tick 1", "update writer", "update reader", "tick 2"}, log.take())
}

func TestBlackboardGetPlainDoesNotCopy(t *testing.T) {
	rt, _ := newTestRuntime(t, Options{})
	bb := rt.Blackboard()
	require.NoError(t, bb.Set("t", map[string]any{"a": 1}))
	assert.Same(t, bb.GetPlain("t"), bb.GetPlain("t"), "the stored value itself")
	copied, _ := bb.Get("t")
	assert.NotSame(t, bb.GetPlain("t"), copied, "Get copies")
	assert.Equal(t, bb.GetPlain("t"), copied)
	assert.Nil(t, bb.GetPlain("missing"))
}
