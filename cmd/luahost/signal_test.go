package main

import (
	"bufio"
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// live is a luahost process whose stdout is read line by line while it
// runs, so that tests wait for what it prints instead of sleeping.
type live struct {
	cmd    *exec.Cmd
	cancel context.CancelFunc
	lines  chan string // closed at EOF

	mu     sync.Mutex
	stderr bytes.Buffer
}

// startLive starts luahost with args in dir ("": the package directory).
func startLive(t *testing.T, dir string, args ...string) *live {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), runTimeout)
	l := &live{cmd: exec.CommandContext(ctx, luahost, args...), cancel: cancel, lines: make(chan string, 1024)}
	l.cmd.Dir = dir
	l.cmd.Stderr = lockedWriter{l}
	pipe, err := l.cmd.StdoutPipe()
	require.NoError(t, err)
	require.NoError(t, l.cmd.Start())
	t.Cleanup(func() {
		_ = l.cmd.Process.Kill()
		cancel()
	})
	go func() {
		sc := bufio.NewScanner(pipe)
		for sc.Scan() {
			l.lines <- sc.Text()
		}
		close(l.lines)
	}()
	return l
}

type lockedWriter struct{ l *live }

func (w lockedWriter) Write(p []byte) (int, error) {
	w.l.mu.Lock()
	defer w.l.mu.Unlock()
	return w.l.stderr.Write(p)
}

func (l *live) errText() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.stderr.String()
}

// waitFor returns the first line for which match is true, failing the
// test after timeout or at EOF. Lines before it are dropped.
func (l *live) waitFor(t *testing.T, what string, timeout time.Duration, match func(string) bool) string {
	t.Helper()
	deadline := time.After(timeout)
	for {
		select {
		case line, ok := <-l.lines:
			if !ok {
				t.Fatalf("stdout ended before %s; stderr:\n%s", what, l.errText())
			}
			if match(line) {
				return line
			}
		case <-deadline:
			t.Fatalf("no %s after %s; stderr:\n%s", what, timeout, l.errText())
		}
	}
}

// rest returns the lines up to EOF.
func (l *live) rest(t *testing.T, timeout time.Duration) []string {
	t.Helper()
	var out []string
	deadline := time.After(timeout)
	for {
		select {
		case line, ok := <-l.lines:
			if !ok {
				return out
			}
			out = append(out, line)
		case <-deadline:
			t.Fatalf("stdout still open after %s; stderr:\n%s", timeout, l.errText())
		}
	}
}

func TestSignals(t *testing.T) {
	// The scene prints "first frame" in frame 1, and a line at shutdown.
	tests := []struct {
		name string
		sig  os.Signal
		args []string
	}{
		{"interrupt in watch mode", os.Interrupt, []string{"run", "testdata/signal/scene.json", "--watch", "--fps", "30"}},
		{"terminate a long run", syscall.SIGTERM, []string{"run", "testdata/signal/scene.json", "--frames", "100000000"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			l := startLive(t, "", tc.args...)
			// The first frame's print is flushed at the end of the frame.
			l.waitFor(t, "first frame", 10*time.Second, func(s string) bool { return s == "first frame" })

			start := time.Now()
			require.NoError(t, l.cmd.Process.Signal(tc.sig))
			rest := l.rest(t, 5*time.Second)
			err := l.cmd.Wait()
			assert.Less(t, time.Since(start), 5*time.Second)

			require.NoError(t, err, "exit status 0 after %s; stderr:\n%s", tc.sig, l.errText())
			// The frame under way finished, then shutdown ran every
			// onDestroy.
			assert.Equal(t, []string{"shut down\tsleeper\tafter frame\ttrue"}, rest)
			assert.NotContains(t, l.errText(), "panic")
			if strings.Contains(strings.Join(tc.args, " "), "--watch") {
				assert.Contains(t, l.errText(), "watching")
			}
		})
	}
}

func TestSecondSignal(t *testing.T) {
	// The first signal asks for a clean stop, which never comes: the
	// runaway callback (budgets off) holds the frame or the shutdown. The
	// second exits at once with 130.
	tests := []struct {
		name          string
		first, second os.Signal
		args          []string
	}{
		{"interrupt twice", os.Interrupt, os.Interrupt, []string{"run", "testdata/signal/runaway.json", "--frames", "1000000", "--budget", "0"}},
		{"interrupt then terminate in watch mode", os.Interrupt, syscall.SIGTERM, []string{"run", "testdata/signal/runaway.json", "--watch", "--fps", "30", "--budget", "0"}},
		{"terminate twice", syscall.SIGTERM, syscall.SIGTERM, []string{"run", "testdata/signal/runaway.json", "--frames", "1000000", "--budget", "0"}},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			l := startLive(t, "", tc.args...)
			l.waitFor(t, "ready", 10*time.Second, func(s string) bool { return s == "ready" })
			exited := make(chan error, 1)
			go func() { exited <- l.cmd.Wait() }()

			require.NoError(t, l.cmd.Process.Signal(tc.first))
			select {
			case err := <-exited:
				t.Fatalf("exited after the first signal (%v); stderr:\n%s", err, l.errText())
			case <-time.After(200 * time.Millisecond):
			}

			start := time.Now()
			require.NoError(t, l.cmd.Process.Signal(tc.second))
			var err error
			select {
			case err = <-exited:
			case <-time.After(5 * time.Second):
				t.Fatalf("still running 5s after the second signal; stderr:\n%s", l.errText())
			}
			assert.Less(t, time.Since(start), 2*time.Second)
			var exit *exec.ExitError
			require.ErrorAs(t, err, &exit)
			assert.Equal(t, 130, exit.ExitCode(), "stderr:\n%s", l.errText())
			assert.Contains(t, l.errText(), "again while shutting down")
		})
	}
}

func TestWatchFolderMovedAwayAndBack(t *testing.T) {
	// Under --watch, the script folder moved away and back: one warning
	// while it is gone, and the save after its return is applied.
	dir := t.TempDir()
	scripts := filepath.Join(dir, "scripts")
	require.NoError(t, os.Mkdir(scripts, 0o755))
	version := func(v string) []byte {
		return []byte(`return {
  onCreate = function(self, ctx) print("` + v + `") end,
  onReload = function(self, old, ctx) print("` + v + `") end,
}
`)
	}
	require.NoError(t, os.WriteFile(filepath.Join(scripts, "v.lua"), version("v1"), 0o644))
	require.NoError(t, os.WriteFile(filepath.Join(dir, "scene.json"), []byte(`{"entities": [{"scripts": ["v"]}]}`), 0o644))

	l := startLive(t, dir, "run", "scene.json", "--watch", "--fps", "30")
	l.waitFor(t, "v1", 10*time.Second, func(s string) bool { return s == "v1" })
	require.NoError(t, os.Rename(scripts, scripts+".aside"))
	deadline := time.Now().Add(10 * time.Second)
	for !strings.Contains(l.errText(), "the folder is gone") {
		require.True(t, time.Now().Before(deadline), "no warning; stderr:\n%s", l.errText())
		time.Sleep(20 * time.Millisecond)
	}
	require.NoError(t, os.Rename(scripts+".aside", scripts))
	require.NoError(t, os.WriteFile(filepath.Join(scripts, "v.lua"), version("v2"), 0o644))
	l.waitFor(t, "v2", 10*time.Second, func(s string) bool { return s == "v2" })

	require.NoError(t, l.cmd.Process.Signal(os.Interrupt))
	l.rest(t, 5*time.Second)
	require.NoError(t, l.cmd.Wait(), "stderr:\n%s", l.errText())
	assert.Equal(t, 1, strings.Count(l.errText(), "the folder is gone"), l.errText())
}
