package main

import (
	"bufio"
	"context"
	"io"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/luahost/luahost/luabind"
	"github.com/luahost/luahost/runtime"
)

// start runs the server with args on a goroutine and returns the
// address of its metrics, the lines it prints after that one, and its
// result.
func start(t *testing.T, ctx context.Context, args ...string) (string, <-chan string, <-chan error) {
	t.Helper()
	r, w := io.Pipe()
	done := make(chan error, 1)
	go func() {
		err := run(ctx, append([]string{"-addr", "127.0.0.1:0"}, args...), w, io.Discard)
		_ = w.CloseWithError(err)
		done <- err
	}()
	lines := make(chan string, 16)
	sc := bufio.NewScanner(r)
	require.True(t, sc.Scan(), "the server prints where its metrics are")
	rest, ok := strings.CutPrefix(sc.Text(), "serving ")
	require.True(t, ok, sc.Text())
	addr, _, _ := strings.Cut(rest, " ")
	go func() {
		defer close(lines)
		for sc.Scan() {
			lines <- sc.Text()
		}
	}()
	return addr, lines, done
}

func get(t *testing.T, url string) string {
	t.Helper()
	resp, err := http.Get(url)
	require.NoError(t, err)
	defer resp.Body.Close()
	body, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	return string(body)
}

// TestServer runs the server for 120 frames of each zone: walkers cross
// between the two worlds and none is lost, both export their metrics
// while they run, and the snapshots they save restore into a fresh host.
func TestServer(t *testing.T) {
	dir := t.TempDir()
	addr, lines, done := start(t, context.Background(), "-hz", "240", "-frames", "120", "-walkers", "50", "-save", dir, "-snapshot-every", "40")
	metrics := get(t, addr+"/metrics")
	for !strings.Contains(metrics, `luahost_script_calls_total{callback="onUpdate",script="walker",zone="east"}`) {
		time.Sleep(10 * time.Millisecond)
		metrics = get(t, addr+"/metrics")
	}
	assert.Regexp(t, `luahost_instances\{zone="west"\} \d+`, metrics)
	assert.Regexp(t, `luahost_frame_seconds_count\{zone="east"\} [1-9]`, metrics)
	assert.Contains(t, get(t, addr+"/debug/vars"), `"west": {`)
	require.NoError(t, <-done)
	var out []string
	for l := range lines {
		out = append(out, l)
	}
	require.Len(t, out, 3, "%q", out)
	assert.Regexp(t, `^west: 120 frames, \d+ walkers, [1-9]\d* handed over, 3 snapshots$`, out[0])
	assert.Regexp(t, `^east: 120 frames, \d+ walkers, [1-9]\d* handed over, 3 snapshots$`, out[1])
	assert.Equal(t, "shut down with 100 walkers", out[2], "no walker lost or doubled")

	for _, zone := range []string{"west", "east"} {
		snap, err := readSnapshot(dir, zone)
		require.NoError(t, err)
		assert.Equal(t, uint64(120), snap.Frame)
		rt := runtime.New(runtime.Options{})
		host, err := luabind.New(rt, luabind.Options{FS: scriptsFS(), Stdout: io.Discard})
		require.NoError(t, err)
		require.NoError(t, host.RegisterScript(stamina{}))
		require.NoError(t, host.Restore(snap))
		require.NoError(t, rt.Step(1.0/30))
		assert.Equal(t, len(snap.Entities), rt.Stats().Entities)
		require.NoError(t, host.Close())
	}
}

// TestServerShutdown: cancelling the context (as SIGINT does) stops a
// server that would run forever, promptly and cleanly.
func TestServerShutdown(t *testing.T) {
	ctx, cancel := context.WithCancel(context.Background())
	addr, lines, done := start(t, ctx, "-walkers", "10")
	assert.Contains(t, get(t, addr+"/metrics"), "luahost_frames_total")
	cancel()
	select {
	case err := <-done:
		require.NoError(t, err)
	case <-time.After(10 * time.Second):
		t.Fatal("the server did not stop")
	}
	var last string
	for l := range lines {
		last = l
	}
	assert.Equal(t, "shut down with 20 walkers", last)
}

// TestFlags: bad flags are an error, not a server.
func TestFlags(t *testing.T) {
	for _, args := range [][]string{{"-hz", "0"}, {"-walkers", "-1"}, {"-nope"}} {
		assert.Error(t, run(context.Background(), args, io.Discard, io.Discard), "%q", args)
	}
}
