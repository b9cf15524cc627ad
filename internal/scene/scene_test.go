package scene

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestParseSceneShape(t *testing.T) {
	// Each scene is wrong in one place; the message gives its line and
	// column, the path to it and JSON kinds, never Go types.
	tests := []struct {
		name, scene, want string
	}{
		{"null root", `null`, `s.json:1:1: the scene: want an object, got null`},
		{"array root", `[]`, `s.json:1:1: the scene: want an object, got an array`},
		{"null entity", "{\"entities\": [\n  {},\n  null\n]}", `s.json:3:3: entities[1]: want an object, got null`},
		{"two numbers", `{"entities": [{"position": [1, 2]}]}`, `s.json:1:28: entities[0].position: want exactly 3 numbers [x, y, z], got 2`},
		{"no numbers", `{"entities": [{"rotation": []}]}`, `s.json:1:28: entities[0].rotation: want exactly 3 numbers [x, y, z], got 0`},
		{"four numbers", `{"entities": [{"scale": [1, 2, 3, 4]}]}`, `s.json:1:25: entities[0].scale: want exactly 3 numbers [x, y, z], got 4`},
		{"a string in a vector", `{"entities": [{"position": [1, "2", 3]}]}`, `s.json:1:32: entities[0].position[1]: want a number, got a string`},
		{"null vector", `{"entities": [{"position": null}]}`, `s.json:1:28: entities[0].position: want 3 numbers [x, y, z], got null`},
		{"duplicate root key", `{"seed": 1, "seed": 2}`, `s.json:1:13: the scene: duplicate key "seed"`},
		{"duplicate entity key", "{\"entities\": [\n  {\"name\": \"a\", \"name\": \"b\"}\n]}", `s.json:2:17: entities[0]: duplicate key "name"`},
		{"duplicate key in props", `{"entities": [{"scripts": [{"script": "x", "props": {"a": 1, "a": 2}}]}]}`, `s.json:1:62: entities[0].scripts[0].props: duplicate key "a"`},
		{"duplicate key deep in the blackboard", `{"blackboard": {"a": [{"b": 1, "b": 1}]}}`, `s.json:1:32: blackboard.a[0]: duplicate key "b"`},
		{"props not an object", "{\"entities\": [{\"scripts\": [\n  {\"script\": \"x\", \"props\": 5}\n]}]}", `s.json:2:28: entities[0].scripts[0].props: want an object, got a number`},
		{"script not a string", `{"entities": [{"scripts": [{"script": 5}]}]}`, `s.json:1:39: entities[0].scripts[0].script: want a string, got a number`},
		{"entry without script", `{"entities": [{"scripts": [{"props": {}}]}]}`, `s.json:1:28: entities[0].scripts[0]: a script entry needs "script", a script name`},
		{"unknown key in an entry", "{\"entities\": [{\"scripts\": [\n    {\"script\": \"x\", \"prop\": {}}]}]}", `s.json:2:21: entities[0].scripts[0]: unknown field "prop"`},
		{"entry of the wrong kind", `{"entities": [{"scripts": [true]}]}`, `s.json:1:28: entities[0].scripts[0]: want a script name or {"script": name, "props": {...}}, got true`},
		{"empty script name", `{"entities": [{"scripts": [""]}]}`, `s.json:1:28: entities[0].scripts[0]: want a script name, got ""`},
		{"field in the wrong case", `{"Entities": []}`, `s.json:1:2: the scene: unknown field "Entities"`},
		{"seed not an integer", `{"seed": 1.5}`, `s.json:1:10: seed: want an integer, got 1.5`},
		{"name not a string", `{"entities": [{"name": 7}]}`, `s.json:1:24: entities[0].name: want a string, got a number`},
		{"entities not an array", `{"entities": {}}`, `s.json:1:14: entities: want an array, got an object`},
		{"number out of range in the blackboard", "{\"blackboard\": {\"x\":\n  1e999}}", `s.json:2:3: blackboard.x: 1e999 is out of range`},
		{"number out of range in props", `{"entities": [{"scripts": [{"script": "x", "props": {"a": [-1e400]}}]}]}`, `s.json:1:60: entities[0].scripts[0].props.a[0]: -1e400 is out of range`},
		{"trailing data", "{}\n  x", `s.json:2:3: unexpected data after the scene object`},
		{"a second object", `{} {}`, `s.json:1:4: unexpected data after the scene object`},
		{"invalid UTF-8 in a name", "{\"entities\": [\n  {\"name\": \"a\xff\"}]}", `s.json:2:14: invalid UTF-8 (a scene is UTF-8 text)`},
		{"UTF-16", "\xff\xfe{\x00}\x00", `s.json:1:1: invalid UTF-8 (a scene is UTF-8 text)`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			_, err := Parse("s.json", []byte(tc.scene))
			require.Error(t, err)
			assert.Equal(t, tc.want, err.Error())
		})
	}
}

func TestParseSceneTooManyEntities(t *testing.T) {
	// The entity past the limit is refused where it starts, before any
	// is decoded; the limit itself is accepted.
	scene := func(n int) []byte {
		return []byte(`{"entities": [{}` + strings.Repeat(`,{}`, n-1) + `]}`)
	}
	sc, err := Parse("s.json", scene(MaxEntities))
	require.NoError(t, err)
	assert.Len(t, sc.Entities, MaxEntities)
	_, err = Parse("s.json", scene(MaxEntities+1))
	assert.EqualError(t, err, fmt.Sprintf("s.json:1:%d: entities: more than %d entities", 15+3*MaxEntities, MaxEntities))
}

func TestParseSceneBOM(t *testing.T) {
	// A UTF-8 byte order mark is skipped; positions count from after it.
	sc, err := Parse("s.json", []byte("\xEF\xBB\xBF{\"seed\": 3, \"entities\": [{\"position\": [1, 2, 3]}]}"))
	require.NoError(t, err)
	require.NotNil(t, sc.Seed)
	assert.EqualValues(t, 3, *sc.Seed)
	require.Len(t, sc.Entities, 1)
	assert.Equal(t, &[3]float64{1, 2, 3}, sc.Entities[0].Position)
	_, err = Parse("s.json", []byte("\xEF\xBB\xBF{\"seed\": x}"))
	assert.EqualError(t, err, "s.json:1:10: invalid character 'x' looking for beginning of value")
}

// FuzzParseScene: no input panics, and a refused scene's message starts
// with the path and never shows a Go type.
func FuzzParseScene(f *testing.F) {
	for _, seed := range []string{"", "{}", "null", `{"entities":[{"name":"a","position":[1,2,3],"scripts":["x",{"script":"y","props":{"a":[1,{"b":null}]}}]}]}`, `{"blackboard":{"a":1,"a":2}}`, `{"entities":[null]}`} {
		f.Add([]byte(seed))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		_, err := Parse("s.json", data)
		if err == nil {
			return
		}
		msg := err.Error()
		assert.True(t, strings.HasPrefix(msg, "s.json:"), msg)
		for _, goType := range []string{"main.", "map[", "interface", "float64", "int64", "*["} {
			if !strings.Contains(string(data), goType) { // an echo of the input is fine
				assert.NotContains(t, msg, goType)
			}
		}
	})
}
