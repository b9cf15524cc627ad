package main

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/luahost/luahost/internal/syncbuf"
)

var snapshotHash = regexp.MustCompile(`snapshot sha256 ([0-9a-f]{64})`)

// post sends body to the inspector and decodes the answer.
func post(t *testing.T, url string, body any) (int, map[string]any) {
	t.Helper()
	data, err := json.Marshal(body)
	require.NoError(t, err)
	resp, err := http.Post(url, "application/json", bytes.NewReader(data))
	require.NoError(t, err)
	defer resp.Body.Close()
	var out map[string]any
	require.NoError(t, json.NewDecoder(resp.Body).Decode(&out))
	return resp.StatusCode, out
}

// TestRunRewind: a world run with --inspect and --rewind is paused, moved
// 30 frames back through the API and run on to its last frame; its
// snapshot then is the one of a run that never went back, byte for byte.
func TestRunRewind(t *testing.T) {
	const frames = 90
	url, _, stderr, exit := startInspected(t, "../../scripts/demo.json", "--inspect", "127.0.0.1:0", "--rewind", "100", "--rewind-every", "20",
		"--frames", strconv.Itoa(frames), "--fps", "400", "--dt", "0.0166", "--hash")
	var paused map[string]any
	require.Eventually(t, func() bool {
		_, w := api(t, "GET", url+"api/world", "")
		if w["frame"].(float64) < 45 {
			return false
		}
		_, paused = api(t, "POST", url+"api/pause", "")
		return true
	}, 20*time.Second, 5*time.Millisecond)
	at := uint64(paused["frame"].(float64))
	status, tl := api(t, "GET", url+"api/timeline", "")
	require.Equal(t, http.StatusOK, status, "%v", tl)
	assert.Equal(t, float64(0), tl["first"])
	assert.Equal(t, float64(at), tl["last"])

	status, back := post(t, url+"api/rewind", map[string]any{"back": 30})
	require.Equal(t, http.StatusOK, status, "%v", back)
	assert.Equal(t, float64(at-30), back["frame"])
	assert.Equal(t, true, back["paused"], "a rewound world waits to be looked at")
	status, _ = post(t, url+"api/rewind", map[string]any{"frame": at + 5})
	assert.Equal(t, http.StatusConflict, status, "the frames after the rewind are gone")
	api(t, "POST", url+"api/resume", "")
	var code int
	select {
	case code = <-exit:
	case <-time.After(30 * time.Second):
		t.Fatal("luahost did not end after --frames")
	}
	require.Equal(t, 0, code, stderr.String())
	got := snapshotHash.FindStringSubmatch(stderr.String())
	require.NotNil(t, got, stderr.String())

	// The world ran frames frames, 30 of them twice: it ends at frame
	// frames-30.
	straight := &syncbuf.Buffer{}
	require.Equal(t, 0, run([]string{"run", "../../scripts/demo.json", "--frames", strconv.Itoa(frames - 30), "--dt", "0.0166", "--hash"}, io.Discard, straight))
	want := snapshotHash.FindStringSubmatch(straight.String())
	require.NotNil(t, want, straight.String())
	assert.Equal(t, want[1], got[1], "the rewound run ends in the world of the straight one")
}

// TestRunRewindReload: after a hot reload, a rewind to a frame before it
// is refused, saying why.
func TestRunRewindReload(t *testing.T) {
	dir := t.TempDir()
	require.NoError(t, os.Mkdir(filepath.Join(dir, "scripts"), 0o755))
	copyFile := func(from, to string) {
		data, err := os.ReadFile(filepath.Join("testdata/rewind", from))
		require.NoError(t, err)
		require.NoError(t, os.WriteFile(filepath.Join(dir, to), data, 0o644))
	}
	copyFile("scene.json", "scene.json")
	copyFile("scripts/tick.lua", "scripts/tick.lua")
	scene := filepath.Join(dir, "scene.json")
	url, _, stderr, exit := startInspected(t, scene, "--inspect", "127.0.0.1:0", "--watch", "--rewind", "600", "--frames", "600", "--fps", "300")
	require.Eventually(t, func() bool { return strings.Contains(stderr.String(), "watching") }, 20*time.Second, 5*time.Millisecond)
	copyFile("tick_v2.lua", "scripts/tick.lua")
	require.Eventually(t, func() bool {
		_, w := api(t, "GET", url+"api/world", "")
		return w["reloads"].(float64) > 0
	}, 20*time.Second, 5*time.Millisecond, stderr.String())
	status, out := post(t, url+"api/rewind", map[string]any{"frame": 0})
	assert.Equal(t, http.StatusConflict, status)
	assert.Contains(t, out["error"], "a script was reloaded before frame")
	status, _ = post(t, url+"api/rewind", map[string]any{"back": 0})
	assert.Equal(t, http.StatusOK, status, "the frames since the reload are held")
	api(t, "POST", url+"api/resume", "")
	select {
	case code := <-exit:
		assert.Equal(t, 0, code, stderr.String())
	case <-time.After(30 * time.Second):
		t.Fatal("luahost did not end after --frames")
	}
}
