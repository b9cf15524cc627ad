package main

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// loadArgs runs the load scene: an enemy spending most of a 2M-instruction
// budget every frame, a runaway in frame 3, a watcher.
var loadArgs = []string{"run", "scene.json", "--frames", "6", "--budget", "2M", "--hash"}

const loadDir = "testdata/load"

// TestDeterministicUnderLoad: the same scene run by the real binary idle,
// pinned to one CPU shared with busy loops, and frozen and resumed again
// and again with SIGSTOP and SIGCONT prints the same bytes and the same
// world hash, and its runaway is stopped in the same frame with the same
// message: budgets count work, never the clock.
func TestDeterministicUnderLoad(t *testing.T) {
	idle := luahostRunIn(t, loadDir, loadArgs...)
	require.Equal(t, 0, idle.code, idle.stderr)
	require.Contains(t, idle.stderr, "scripts/runaway.lua:9: exceeded its 2M-instruction budget in onUpdate\n\tin script runaway, runaway (entity 2:1), onUpdate, frame 3\n")
	require.NotContains(t, idle.stderr, "enemy.lua", "the enemy stays within its budget")
	require.Contains(t, idle.stderr, "snapshot sha256 ")
	require.Contains(t, idle.stdout, "enemy\t6\t")

	same := func(t *testing.T, got result) {
		t.Helper()
		assert.Equal(t, 0, got.code)
		assert.Equal(t, idle.stdout, got.stdout, "byte-identical output")
		assert.Equal(t, idle.stderr, got.stderr, "the same fault, frame, message and hash")
	}

	t.Run("pinned to a busy CPU", func(t *testing.T) {
		taskset := busyCPU(t)
		ctx, cancel := context.WithTimeout(context.Background(), runTimeout)
		defer cancel()
		args := append([]string{"-c", "0", luahost}, loadArgs...)
		got := runBinary(t, ctx, exec.CommandContext(ctx, taskset, args...), loadDir)
		t.Logf("pinned run took %v (idle %v)", got.wall, idle.wall)
		same(t, got)
	})

	t.Run("frozen and resumed", func(t *testing.T) {
		ctx, cancel := context.WithTimeout(context.Background(), runTimeout)
		defer cancel()
		cmd := exec.CommandContext(ctx, luahost, loadArgs...)
		cmd.Dir = loadDir
		var stdout, stderr bytes.Buffer
		cmd.Stdout, cmd.Stderr = &stdout, &stderr
		start := time.Now()
		require.NoError(t, cmd.Start())
		exited := make(chan struct{})
		stops := 0
		go func() {
			defer close(exited)
			for {
				select {
				case <-ctx.Done():
					return
				case <-time.After(5 * time.Millisecond):
				}
				if cmd.Process.Signal(syscall.SIGSTOP) != nil {
					return
				}
				stops++
				time.Sleep(40 * time.Millisecond)
				if cmd.Process.Signal(syscall.SIGCONT) != nil {
					return
				}
			}
		}()
		err := cmd.Wait()
		cancel()
		<-exited
		require.NoError(t, err, stderr.String())
		t.Logf("frozen %d times; the run took %v (idle %v)", stops, time.Since(start), idle.wall)
		assert.Positive(t, stops)
		same(t, result{stdout: stdout.String(), stderr: stderr.String()})
	})
}

// TestHostileUnderLoad: every attack of the hostile corpus, run by the
// binary pinned to one CPU that busy loops share, prints the same bytes
// on stdout and stderr as when run idle: each attacker is stopped at the
// same point with the same message.
func TestHostileUnderLoad(t *testing.T) {
	cases := hostileCases(t)
	idle := make(map[string]result, len(cases))
	for _, c := range cases {
		idle[c.name] = luahostRunIn(t, hostileDir, append([]string{"run", c.name + ".json"}, c.args...)...)
	}
	taskset := busyCPU(t)
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), runTimeout)
			defer cancel()
			args := append([]string{"-c", "0", luahost, "run", c.name + ".json"}, c.args...)
			got := runBinary(t, ctx, exec.CommandContext(ctx, taskset, args...), hostileDir)
			want := idle[c.name]
			assert.Equal(t, want.code, got.code)
			assert.Equal(t, want.stdout, got.stdout)
			assert.Equal(t, want.stderr, got.stderr)
		})
	}
}

// busyCPU starts four busy loops pinned to CPU 0, stopped when the test
// ends, and returns the taskset command that pins a process beside them.
// Without taskset the test is skipped, or fails under CI.
func busyCPU(t *testing.T) string {
	t.Helper()
	taskset, err := exec.LookPath("taskset")
	if err != nil {
		if os.Getenv("CI") != "" {
			t.Fatal("taskset is missing: the load test cannot pin a scene to a busy CPU")
		}
		t.Skip("taskset is missing: cannot pin a scene to a busy CPU")
	}
	for range 4 {
		busy := exec.Command(taskset, "-c", "0", "sh", "-c", "while :; do :; done")
		require.NoError(t, busy.Start())
		t.Cleanup(func() {
			_ = busy.Process.Kill()
			_ = busy.Wait()
		})
	}
	return taskset
}
