package nats_test

import (
	"fmt"
	"os/exec"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/luahost/luahost/internal/syncbuf"
)

// tdScene is the tower-defence scene: towers that query enemies across
// edges, send them damage drawn from math.random and kill them, enemies
// spawned with entity values in their props.
const tdScene = "../testdata/td.json"

// sixtieth is run's default step, 1/60 s, as the zone command reads it.
const sixtieth = "0.016666666666666666"

// lockstepProc is a running "luahost zone --lockstep" process.
type lockstepProc struct {
	cmd            *exec.Cmd
	stdout, stderr *syncbuf.Buffer
	done           chan error
}

// startLockstep starts zone i of n of world in lockstep on the
// tower-defence scene, with more flags.
func startLockstep(t *testing.T, url, world string, i, n int, more ...string) *lockstepProc {
	t.Helper()
	args := append([]string{"zone", tdScene, "--nats", url, "--world", world, "--zone", strconv.Itoa(i), "--zones", strconv.Itoa(n),
		"--lockstep", "--dt", sixtieth, "--budget", "0"}, more...)
	p := &lockstepProc{cmd: exec.Command(luahostBinary(t), args...), stdout: &syncbuf.Buffer{}, stderr: &syncbuf.Buffer{}, done: make(chan error, 1)}
	p.cmd.Stdout, p.cmd.Stderr = p.stdout, p.stderr
	require.NoError(t, p.cmd.Start())
	go func() { p.done <- p.cmd.Wait() }()
	t.Cleanup(func() {
		_ = p.cmd.Process.Kill()
		if t.Failed() {
			t.Logf("zone %d said:\n%s", i, p.stderr.String())
		}
	})
	return p
}

// wait waits for the process to end and returns its exit code.
func (p *lockstepProc) wait(t *testing.T) int {
	t.Helper()
	select {
	case err := <-p.done:
		if exit, ok := err.(*exec.ExitError); ok {
			return exit.ExitCode()
		}
		require.NoError(t, err)
		return 0
	case <-time.After(60 * time.Second):
		t.Fatalf("the zone did not end; it said:\n%s", p.stderr.String())
		return -1
	}
}

// TestZoneLockstepProcesses: the tower-defence scene run by real zone
// processes in lockstep over the real nats-server prints, in every zone,
// byte for byte what luahost run prints in one process, and the world's
// hash is the same, on 2 and 3 zones.
func TestZoneLockstepProcesses(t *testing.T) {
	srv := startNATSBinary(t)
	for _, n := range []int{2, 3} {
		t.Run(fmt.Sprintf("%d zones", n), func(t *testing.T) {
			run := exec.Command(luahostBinary(t), "run", tdScene, "--frames", "200", "--hash", "--budget", "0", "--zones", strconv.Itoa(n))
			var stdout, stderr strings.Builder
			run.Stdout, run.Stderr = &stdout, &stderr
			require.NoError(t, run.Run(), stderr.String())
			require.Contains(t, stdout.String(), "final score")
			world := fmt.Sprintf("procs%d", n)
			procs := make([]*lockstepProc, n)
			for i := range procs {
				procs[i] = startLockstep(t, srv.url(), world, i, n, "--frames", "200", "--fps", "1000", "--hash")
			}
			for i, p := range procs {
				require.Equal(t, 0, p.wait(t), "zone %d: %s", i, p.stderr.String())
				assert.Equal(t, stdout.String(), p.stdout.String(), "zone %d", i)
				assert.Contains(t, p.stderr.String(), stderr.String(), "zone %d: the world's hash", i)
				assert.Contains(t, p.stderr.String(), fmt.Sprintf("zone %d of world %s: running ", i, world))
			}
		})
	}
}

// TestZoneLockstepStop: SIGTERM to one zone of a world in lockstep ends
// the world after the same frame in every zone: both exit 0 having
// printed the same.
func TestZoneLockstepStop(t *testing.T) {
	srv := startNATSBinary(t)
	z0 := startLockstep(t, srv.url(), "stop", 0, 2, "--fps", "200")
	z1 := startLockstep(t, srv.url(), "stop", 1, 2, "--fps", "200")
	require.Eventually(t, func() bool { return strings.Contains(z0.stdout.String(), "hit by") }, 30*time.Second, 20*time.Millisecond, "the world plays")
	require.NoError(t, z1.cmd.Process.Signal(syscall.SIGTERM))
	assert.Equal(t, 0, z1.wait(t), z1.stderr.String())
	assert.Equal(t, 0, z0.wait(t), z0.stderr.String())
	assert.Equal(t, z0.stdout.String(), z1.stdout.String())
}

// TestZoneLockstepPeerKilled: a zone whose peer is killed stops the
// world after --peer-timeout, naming the peer, with exit status 2.
func TestZoneLockstepPeerKilled(t *testing.T) {
	srv := startNATSBinary(t)
	z0 := startLockstep(t, srv.url(), "killed", 0, 2, "--fps", "200", "--peer-timeout", "1s")
	z1 := startLockstep(t, srv.url(), "killed", 1, 2, "--fps", "200")
	require.Eventually(t, func() bool { return strings.Contains(z0.stdout.String(), "hit by") }, 30*time.Second, 20*time.Millisecond, "the world plays")
	require.NoError(t, z1.cmd.Process.Kill())
	assert.Equal(t, 2, z0.wait(t))
	assert.Regexp(t, `luahost zone: zone 0: no word from zone 1 of world killed for round \d+ within 1s: the world stops\n`, z0.stderr.String())
}
