package main

import (
	"encoding/json"
	"io"
	"net/http"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/luahost/luahost/internal/syncbuf"
)

var inspectorURL = regexp.MustCompile(`inspector listening on (http://\S+/)(\?token=(\w+))?`)

// startInspected runs "luahost run" with args on a goroutine and returns
// the inspector's URL and token (as printed on stderr), and a channel
// that receives the exit status.
func startInspected(t *testing.T, args ...string) (url, token string, stderr *syncbuf.Buffer, exit chan int) {
	t.Helper()
	stderr = &syncbuf.Buffer{}
	exit = make(chan int, 1)
	go func() { exit <- run(append([]string{"run"}, args...), io.Discard, stderr) }()
	deadline := time.Now().Add(20 * time.Second)
	for {
		if m := inspectorURL.FindStringSubmatch(stderr.String()); m != nil {
			return m[1], m[3], stderr, exit
		}
		select {
		case code := <-exit:
			t.Fatalf("luahost exited with %d before listening:\n%s", code, stderr.String())
		case <-time.After(5 * time.Millisecond):
		}
		require.True(t, time.Now().Before(deadline), "no inspector address on stderr:\n%s", stderr.String())
	}
}

// api calls the inspector at url with an optional bearer token.
func api(t *testing.T, method, url, token string) (int, map[string]any) {
	t.Helper()
	req, err := http.NewRequest(method, url, strings.NewReader("{}"))
	require.NoError(t, err)
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	defer resp.Body.Close()
	var out map[string]any
	require.NoError(t, json.NewDecoder(resp.Body).Decode(&out))
	return resp.StatusCode, out
}

// TestRunInspect runs the demo with --inspect on port 0: the real address
// is printed, the world runs in real time, pause and step work through
// the API, and the run ends after --frames frames once resumed.
func TestRunInspect(t *testing.T) {
	url, token, stderr, exit := startInspected(t, "../../scripts/demo.json", "--inspect", "127.0.0.1:0", "--frames", "40", "--fps", "100")
	assert.Empty(t, token, "a token on loopback")
	assert.NotContains(t, url, ":0/")
	status, world := api(t, "GET", url+"api/world", "")
	require.Equal(t, http.StatusOK, status)
	assert.Greater(t, world["entities"], 0.0)

	status, paused := api(t, "POST", url+"api/pause", "")
	require.Equal(t, http.StatusOK, status, "%v", paused)
	f := paused["frame"].(float64)
	_, stepped := api(t, "POST", url+"api/step", "")
	assert.Equal(t, f+1, stepped["frame"])
	status, _ = api(t, "POST", url+"api/resume", "")
	require.Equal(t, http.StatusOK, status)
	select {
	case code := <-exit:
		assert.Equal(t, 0, code, stderr.String())
	case <-time.After(30 * time.Second):
		t.Fatal("luahost did not end after --frames")
	}
}

// TestRunInspectToken: on an address other than loopback every request
// needs the token, which is printed with the address; --inspect-readonly
// refuses pausing.
func TestRunInspectToken(t *testing.T) {
	for _, tc := range []struct {
		name       string
		args       []string
		wantToken  string
		pauseWants int
	}{
		{"all interfaces, random token", []string{"--inspect", ":0"}, "", http.StatusOK},
		{"given token", []string{"--inspect", ":0", "--inspect-token", "abc123"}, "abc123", http.StatusOK},
		{"read-only", []string{"--inspect", "127.0.0.1:0", "--inspect-readonly"}, "", http.StatusForbidden},
	} {
		t.Run(tc.name, func(t *testing.T) {
			args := append([]string{"../../scripts/demo.json", "--frames", "20", "--fps", "100"}, tc.args...)
			url, token, stderr, exit := startInspected(t, args...)
			if tc.wantToken != "" {
				assert.Equal(t, tc.wantToken, token)
			}
			local := strings.Replace(url, "[::]", "127.0.0.1", 1)
			if token != "" {
				status, _ := api(t, "GET", local+"api/world", "")
				assert.Equal(t, http.StatusUnauthorized, status, "a read without the token")
			}
			status, _ := api(t, "GET", local+"api/world", token)
			assert.Equal(t, http.StatusOK, status)
			status, _ = api(t, "POST", local+"api/pause", token)
			assert.Equal(t, tc.pauseWants, status)
			if status == http.StatusOK {
				api(t, "POST", local+"api/resume", token)
			}
			select {
			case code := <-exit:
				assert.Equal(t, 0, code, stderr.String())
			case <-time.After(30 * time.Second):
				t.Fatal("luahost did not end after --frames")
			}
		})
	}
}
