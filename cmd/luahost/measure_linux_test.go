//go:build linux

package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/exec"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/require"
)

// measureEnv, set in the environment, makes the test binary a launcher
// that runs the command in its arguments and writes the command's peak
// resident memory and run time to file descriptor 3 (see launchIfAsked).
const measureEnv = "LUAHOST_TEST_MEASURE_RSS"

// launchIfAsked turns the test binary into the launcher when measureEnv
// is set: it runs os.Args[1:] with the same standard streams, writes the
// child's peak resident memory in bytes and its run time in nanoseconds
// (the launcher's own start-up left out) to descriptor 3, and exits with
// the child's status (128+N when signal N killed it).
//
// The detour is needed because Linux charges a child started by vfork
// (as os/exec does) with its parent's peak resident memory: a child of the
// test process, grown by the in-process runs, would seem as large as the
// test. A child of this small launcher is charged with the launcher's few
// megabytes at most.
func launchIfAsked() {
	if os.Getenv(measureEnv) == "" {
		return
	}
	cmd := exec.Command(os.Args[1], os.Args[2:]...)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, os.Stdout, os.Stderr
	cmd.Env = slices.DeleteFunc(os.Environ(), func(kv string) bool { return strings.HasPrefix(kv, measureEnv+"=") })
	cmd.SysProcAttr = &syscall.SysProcAttr{Pdeathsig: syscall.SIGKILL}
	start := time.Now()
	err := cmd.Run()
	wall := time.Since(start)
	if cmd.ProcessState == nil {
		fmt.Fprintln(os.Stderr, "launcher:", err)
		os.Exit(125)
	}
	if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
		fmt.Fprint(os.NewFile(3, "rss"), ru.Maxrss<<10, " ", int64(wall)) // Linux reports kilobytes
	}
	if ws, ok := cmd.ProcessState.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
		os.Exit(128 + int(ws.Signal()))
	}
	os.Exit(cmd.ProcessState.ExitCode())
}

// processCPU returns the CPU time the process has used so far, user and
// system, on every thread (the collector's included).
func processCPU() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// luahostMeasured is luahostRunIn that also measures the binary's peak
// resident memory, through the launcher; wall is the binary's own run
// time.
func luahostMeasured(t *testing.T, dir string, args ...string) result {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), runTimeout)
	defer cancel()
	report, w, err := os.Pipe()
	require.NoError(t, err)
	defer report.Close()
	cmd := exec.CommandContext(ctx, os.Args[0], append([]string{luahost}, args...)...)
	cmd.Env = append(os.Environ(), measureEnv+"=1")
	cmd.ExtraFiles = []*os.File{w}
	got := make(chan string, 1)
	go func() {
		b, _ := io.ReadAll(report)
		got <- string(b)
	}()
	res := runBinary(t, ctx, cmd, dir)
	w.Close()
	var wall int64
	_, err = fmt.Sscan(<-got, &res.maxRSS, &wall)
	require.NoError(t, err, "the launcher reports the peak resident memory and the run time")
	res.wall = time.Duration(wall)
	return res
}
