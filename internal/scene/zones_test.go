package scene

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestParseSceneZones(t *testing.T) {
	// Each scene's zones field is wrong in one place; the message gives
	// the line and column of the offending value.
	tests := []struct {
		name, scene, want string
	}{
		{"unsorted edges", "{\"zones\": {\"axis\": \"x\",\n  \"edges\": [0, 100, 50]}}", `s.json:2:21: zones.edges[2]: 50 is not above edges[1], 100 (edges must increase strictly: strips may not overlap)`},
		{"equal edges", `{"zones": {"axis": "x", "edges": [0, 0]}}`, `s.json:1:38: zones.edges[1]: 0 is not above edges[0], 0 (edges must increase strictly: strips may not overlap)`},
		{"no edges", `{"zones": {"axis": "y", "edges": []}}`, `s.json:1:34: zones.edges: want at least one edge (n edges make n+1 zones)`},
		{"edges missing", `{"zones": {"axis": "y"}}`, `s.json:1:11: zones.edges: want at least one edge (n edges make n+1 zones)`},
		{"axis missing", `{"zones": {"edges": [1]}}`, `s.json:1:11: zones: want "axis" ("x", "y" or "z") and "edges" (at least one number)`},
		{"unknown axis", `{"seed": 1, "zones": {"axis": "w", "edges": [1]}}`, `s.json:1:31: zones.axis: want "x", "y" or "z", got "w"`},
		{"edge not a number", `{"zones": {"axis": "x", "edges": [1, "2"]}}`, `s.json:1:38: zones.edges[1]: want a number, got a string`},
		{"unknown field", `{"zones": {"axis": "x", "edge": [1]}}`, `s.json:1:25: zones: unknown field "edge"`},
		{"zones not an object", `{"zones": [0, 100]}`, `s.json:1:11: zones: want an object, got an array`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Parse("s.json", []byte(tc.scene))
			require.Error(t, err)
			assert.Equal(t, tc.want, err.Error())
		})
	}
}
