package main

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"testing"
	"time"
)

var update = flag.Bool("update", false, "rewrite the golden files in testdata/golden")

// luahost is the path of the binary built once by TestMain; the tests run
// the real program, as an operator would.
var luahost string

func TestMain(m *testing.M) {
	launchIfAsked()
	flag.Parse()
	dir, err := os.MkdirTemp("", "luahost-test-")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	luahost = filepath.Join(dir, "luahost")
	build := exec.Command("go", "build", "-o", luahost, ".")
	build.Stdout, build.Stderr = os.Stderr, os.Stderr
	if err := build.Run(); err != nil {
		fmt.Fprintln(os.Stderr, "building luahost:", err)
		os.RemoveAll(dir)
		os.Exit(1)
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// result is what one run of the binary produced.
type result struct {
	stdout, stderr string
	code           int
	wall           time.Duration // from start to exit
	maxRSS         int64         // peak resident memory in bytes; only from luahostMeasured
}

// runTimeout bounds every run; the scenes here take milliseconds.
const runTimeout = 30 * time.Second

// luahostRun runs the binary with args in the package directory (so that
// testdata paths, and the file names in messages, are relative to it).
func luahostRun(t *testing.T, args ...string) result {
	t.Helper()
	return luahostRunIn(t, "", args...)
}

// luahostRunIn runs the binary with args in dir ("": the package
// directory) and returns its output and exit status.
func luahostRunIn(t *testing.T, dir string, args ...string) result {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), runTimeout)
	defer cancel()
	return runBinary(t, ctx, exec.CommandContext(ctx, luahost, args...), dir)
}

// runBinary runs cmd in dir and returns what it printed, its exit status
// and how long it took; ctx is the context cmd was made with.
func runBinary(t *testing.T, ctx context.Context, cmd *exec.Cmd, dir string) result {
	t.Helper()
	cmd.Dir = dir
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	start := time.Now()
	err := cmd.Run()
	res := result{stdout: stdout.String(), stderr: stderr.String(), wall: time.Since(start)}
	var exit *exec.ExitError
	switch {
	case err == nil:
	case errors.As(err, &exit) && ctx.Err() == nil:
		res.code = exit.ExitCode()
	default:
		t.Fatalf("%q: %v\nstderr:\n%s", cmd.Args, err, res.stderr)
	}
	return res
}
