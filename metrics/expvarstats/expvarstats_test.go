package expvarstats_test

import (
	"encoding/json"
	"expvar"
	"io"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/luahost/luahost/luabind"
	"github.com/luahost/luahost/metrics/expvarstats"
	"github.com/luahost/luahost/runtime"
)

// TestPublish serves /debug/vars and reads the host's counters back from
// its JSON.
func TestPublish(t *testing.T) {
	rt := runtime.New(runtime.Options{Seed: 1, OnError: runtime.Discard})
	h, err := luabind.New(rt, luabind.Options{Dir: "testdata", Stdout: io.Discard, Log: io.Discard})
	require.NoError(t, err)
	t.Cleanup(func() { _ = h.Close() })
	for _, script := range []string{"spinner", "spinner", "fails"} {
		e := rt.Spawn()
		_, err := h.Attach(e, script, nil)
		require.NoError(t, err)
		require.NoError(t, rt.Activate(e))
	}
	for range 3 {
		require.NoError(t, rt.Step(1.0/60))
	}
	expvarstats.Publish("luahost_test", h)
	srv := httptest.NewServer(expvar.Handler())
	defer srv.Close()
	resp, err := http.Get(srv.URL)
	require.NoError(t, err)
	defer resp.Body.Close()
	var vars struct {
		Luahost struct {
			Frames       uint64 `json:"frames"`
			Entities     int    `json:"entities"`
			FrameSeconds struct {
				Count   uint64            `json:"count"`
				Buckets map[string]uint64 `json:"buckets"`
			} `json:"frame_seconds"`
			Script map[string]struct {
				Calls     int64 `json:"calls"`
				Faults    int64 `json:"faults"`
				Callbacks map[string]struct {
					Errors int64 `json:"errors"`
				} `json:"callbacks"`
			} `json:"script"`
		} `json:"luahost_test"`
	}
	require.NoError(t, json.NewDecoder(resp.Body).Decode(&vars))
	v := vars.Luahost
	assert.Equal(t, uint64(3), v.Frames)
	assert.Equal(t, 3, v.Entities)
	assert.Equal(t, uint64(3), v.FrameSeconds.Count)
	assert.Equal(t, uint64(3), v.FrameSeconds.Buckets["+Inf"])
	assert.Equal(t, int64(6), v.Script["spinner"].Calls)
	assert.Equal(t, int64(1), v.Script["fails"].Faults)
	assert.Equal(t, int64(1), v.Script["fails"].Callbacks["onUpdate"].Errors)
}
