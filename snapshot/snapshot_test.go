package snapshot

import (
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/luahost/luahost/runtime"
)

func sample() *World {
	return &World{
		Format: Format, Frame: 3, Time: 0.05, DT: 1.0 / 60, Seed: 7, Seq: 2, Slots: 2, Free: []string{},
		Scripts:    []Script{{Name: "mover", Random: "AAAA"}},
		Blackboard: BlackboardJSON{Value: &runtime.Table{}},
		Entities: []Entity{{ID: "1:1", Name: "hero", Position: &Vec{1, 2, 3},
			Instances: []Instance{{Seq: 1, Script: "mover", Self: SelfJSON{Value: &runtime.Table{Fields: []runtime.Field{{Key: "hp", Value: 10.0}}}}}}}},
	}
}

// TestRoundTrip: a parsed document marshals to the same bytes, one
// entity a line.
func TestRoundTrip(t *testing.T) {
	data, err := sample().Marshal()
	require.NoError(t, err)
	back, err := Parse(data)
	require.NoError(t, err)
	again, err := back.Marshal()
	require.NoError(t, err)
	assert.Equal(t, string(data), string(again))
	assert.Contains(t, string(data), "\n{\"id\":\"1:1\"")
	assert.Equal(t, runtime.Vec3{X: 1, Y: 2, Z: 3}, back.Entities[0].Position.Or(runtime.Vec3{}))
	assert.Equal(t, runtime.Vec3{X: 1, Y: 1, Z: 1}, back.Entities[0].Scale.Or(runtime.Vec3{X: 1, Y: 1, Z: 1}), "a left-out vector reads as its default")
}

// TestRefused: a document that is not one is refused, wrapping
// runtime.ErrBadSnapshot, at its place where it has one.
func TestRefused(t *testing.T) {
	tests := []struct {
		name, doc, want string
		line, col       int
	}{
		{"no format", `{"frame": 1}`, `no "format" field`, 0, 0},
		{"newer format", `{"format": "luahost-snapshot/9"}`, "a newer luahost wrote it", 0, 0},
		{"field twice", "{\"format\": \"luahost-snapshot/1\",\n \"frame\": 1, \"frame\": 2}", "frame", 2, 0},
		{"bad vector", "{\"format\": \"luahost-snapshot/1\", \"entities\": [\n{\"id\": \"1:1\", \"position\": [1, 2], \"instances\": []}]}", "entities[0]: bad snapshot: a vector must be [x, y, z]", 0, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := Parse([]byte(tt.doc))
			require.Error(t, err)
			assert.True(t, errors.Is(err, runtime.ErrBadSnapshot), "%v", err)
			assert.Contains(t, err.Error(), tt.want)
			var te *TextError
			if tt.line > 0 {
				require.ErrorAs(t, err, &te)
				assert.Equal(t, tt.line, te.Line)
			}
		})
	}
}

// TestCheckFormat: only this version's format passes.
func TestCheckFormat(t *testing.T) {
	assert.NoError(t, sample().CheckFormat())
	w := sample()
	w.Format = "luahost-snapshot/2"
	assert.ErrorIs(t, w.CheckFormat(), runtime.ErrBadSnapshot)
}
