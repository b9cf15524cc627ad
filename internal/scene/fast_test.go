package scene

import (
	"bytes"
	"fmt"
	"io/fs"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// fastCases are scenes fastDecode must take (true) or leave to the strict
// path (false).
var fastCases = []struct {
	name  string
	scene string
	fast  bool
}{
	{"empty", `{}`, true},
	{"everything", "{\"scripts\": \"s\", \"seed\": -42, \"blackboard\": {\"a\": [1, 2.5, -0, 1e3, true, false, null, \"x\", {\"b\": {}}], \"c\": []},\n \"entities\": [\n  {\"name\": \"a\", \"position\": [1, -2, 3.25], \"rotation\": [0, 0, 1e-3], \"scale\": [2, 2, 2], \"tags\": [\"t\", \"u\"], \"scripts\": [\"x\", {\"script\": \"y\", \"props\": {\"n\": 12345678901234567890}}, {\"script\": \"z\"}]},\n  {}, {\"tags\": [], \"scripts\": []}]}", true},
	{"escaped strings", `{"scripts": "a\"b\\c\u00e9\n", "entities": [{"name": "\ud83d\ude00", "tags": ["\/"]}]}`, true},
	{"long numbers", `{"entities": [{"position": [123456789012345, -12345678901234, 0.1]}]}`, true},
	{"white space", " \t\r\n{ \"entities\" : [ { \"position\" : [ 1 , 2 , 3 ] } ] } \n", true},
	{"escaped key", `{"entit\u0069es": []}`, false},
	{"zones", `{"zones": {"axis": "x", "edges": [0]}}`, false},
	{"two numbers", `{"entities": [{"position": [1, 2]}]}`, false},
	{"four numbers", `{"entities": [{"position": [1, 2, 3, 4]}]}`, false},
	{"null name", `{"entities": [{"name": null}]}`, false},
	{"duplicate key", `{"seed": 1, "seed": 1}`, false},
	{"duplicate plain key", `{"blackboard": {"a": 1, "a": 1}}`, false},
	{"leading zero", `{"seed": 01}`, false},
	{"bare point", `{"blackboard": {"a": 1.}}`, false},
	{"plus", `{"blackboard": {"a": +1}}`, false},
	{"out of range", `{"blackboard": {"a": 1e999}}`, false},
	{"seed not an integer", `{"seed": 1e3}`, false},
	{"empty script name", `{"entities": [{"scripts": [""]}]}`, false},
	{"entry without script", `{"entities": [{"scripts": [{"props": {}}]}]}`, false},
	{"null props", `{"entities": [{"scripts": [{"script": "x", "props": null}]}]}`, false},
	{"unknown field", `{"entities": [{"Name": "a"}]}`, false},
	{"trailing comma", `{"entities": [{},]}`, false},
	{"trailing data", `{} x`, false},
	{"control character", "{\"scripts\": \"a\tb\"}", false},
	{"truncated", `{"entities": [`, false},
	{"truncated word", `{"blackboard": {"a": tru`, false},
	{"deep", `{"blackboard": {"a": ` + strings.Repeat("[", 300) + strings.Repeat("]", 300) + `}}`, false},
}

// TestFastDecode: fastDecode takes the common scenes and only what the
// strict path takes, into the same values; it leaves the rest to the
// strict path, whose messages do not change.
func TestFastDecode(t *testing.T) {
	for _, tc := range fastCases {
		t.Run(tc.name, func(t *testing.T) {
			sc, ok := fastDecode([]byte(tc.scene))
			assert.Equal(t, tc.fast, ok)
			if ok {
				want, err := strictDecode("s.json", []byte(tc.scene), false)
				require.NoError(t, err)
				assert.Equal(t, want, sc)
			}
		})
	}
}

// FuzzFastDecode: whatever fastDecode takes, the strict path takes too,
// into the same scene.
func FuzzFastDecode(f *testing.F) {
	for _, tc := range fastCases {
		f.Add([]byte(tc.scene))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		if invalidUTF8(data) >= 0 {
			return
		}
		sc, ok := fastDecode(data)
		if !ok {
			return
		}
		want, err := strictDecode("s.json", data, false)
		require.NoError(t, err, "fastDecode took %q", data)
		assert.Equal(t, want, sc)
	})
}

// BenchmarkParse decodes a scene of n entities, each named, placed, tagged
// and given a script with props, as a generated level would be.
func BenchmarkParse(b *testing.B) {
	for _, n := range []int{10_000, 100_000} {
		data := benchScene(n)
		b.Run(fmt.Sprintf("entities=%d", n), func(b *testing.B) {
			b.ReportAllocs()
			b.SetBytes(int64(len(data)))
			for b.Loop() {
				if _, err := Parse("s.json", data); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func benchScene(n int) []byte {
	var sb strings.Builder
	sb.WriteString(`{"scripts": "scripts", "entities": [`)
	for i := range n {
		if i > 0 {
			sb.WriteString(",\n")
		}
		fmt.Fprintf(&sb, `{"name": "e%d", "position": [%d, 0, %d.5], "tags": ["mob"], "scripts": [{"script": "wanderer", "props": {"phase": 0.25}}]}`, i, i%1000, i/1000)
	}
	sb.WriteString("]}\n")
	return []byte(sb.String())
}

// TestFastDecodeRepositoryScenes: every scene file of the repository that
// the strict path takes decodes to the same scene on the fast path, or is
// left to the strict one.
func TestFastDecodeRepositoryScenes(t *testing.T) {
	var files []string
	require.NoError(t, filepath.WalkDir("../..", func(path string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() && strings.HasSuffix(path, ".json") && strings.Contains(path, "testdata") {
			files = append(files, path)
		}
		return err
	}))
	taken := 0
	for _, path := range files {
		data, err := Read(path) // some are links to /dev/zero
		if err != nil {
			continue
		}
		data = bytes.TrimPrefix(data, utf8BOM)
		if invalidUTF8(data) >= 0 || IsSnapshot(data) {
			continue
		}
		want, err := strictDecode(path, data, false)
		sc, ok := fastDecode(data)
		if !ok {
			continue
		}
		taken++
		if names := checkNames(path, sc); names != nil {
			// Both paths refuse two entities of one name, after decoding.
			assert.EqualError(t, err, names.Error())
			continue
		}
		require.NoError(t, err, "fastDecode took %s, which the strict path refuses", path)
		assert.Equal(t, want, sc, path)
	}
	assert.Positive(t, taken, "some scene was decoded on the fast path")
}
