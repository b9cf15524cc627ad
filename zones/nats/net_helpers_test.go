package nats_test

import (
	"bufio"
	"io"
	"net"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"
	"time"

	natsserver "github.com/nats-io/nats-server/v2/server"
	"github.com/stretchr/testify/require"

	"github.com/luahost/luahost/luabind"
	"github.com/luahost/luahost/runtime"
	"github.com/luahost/luahost/zones"
	"github.com/luahost/luahost/zones/internal/zonetest"
	"github.com/luahost/luahost/zones/nats"
)

// natsServer is a NATS server with JetStream on a loopback port, storing
// in a folder of the test: embedded in the test process, or the real
// nats-server binary. It can be stopped and started again on the same
// port and store.
type natsServer struct {
	t    testing.TB
	port int
	dir  string
	srv  *natsserver.Server
	// bin is the nats-server binary ("": embedded), cmd its process.
	bin string
	cmd *exec.Cmd
}

// startNATS starts an embedded NATS server; it stops when the test ends.
func startNATS(t testing.TB) *natsServer {
	t.Helper()
	return newNATS(t, "")
}

// startNATSBinary starts the real nats-server binary. Where it is not
// installed, the test says so and runs against the embedded server
// instead; in CI (the environment variable CI set), that fails the test:
// .ci/run installs it.
func startNATSBinary(t testing.TB) *natsServer {
	t.Helper()
	bin, err := exec.LookPath("nats-server")
	if err != nil {
		if os.Getenv("CI") != "" {
			t.Fatalf("nats-server is not installed (.ci/run installs it): %v", err)
		}
		t.Log("nats-server is not installed: running against the embedded server")
		bin = ""
	}
	return newNATS(t, bin)
}

func newNATS(t testing.TB, bin string) *natsServer {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	port := l.Addr().(*net.TCPAddr).Port
	require.NoError(t, l.Close())
	s := &natsServer{t: t, port: port, dir: t.TempDir(), bin: bin}
	s.start()
	t.Cleanup(s.stop)
	return s
}

func (s *natsServer) start() {
	s.t.Helper()
	if s.bin != "" {
		s.startBinary()
		return
	}
	srv, err := natsserver.NewServer(&natsserver.Options{Host: "127.0.0.1", Port: s.port, JetStream: true, StoreDir: s.dir, NoLog: true, NoSigs: true})
	require.NoError(s.t, err)
	go srv.Start()
	require.True(s.t, srv.ReadyForConnections(10*time.Second), "the embedded NATS server did not start")
	s.srv = srv
}

// startBinary starts nats-server and waits until it says it is ready.
func (s *natsServer) startBinary() {
	s.t.Helper()
	cmd := exec.Command(s.bin, "-js", "-a", "127.0.0.1", "-p", strconv.Itoa(s.port), "-sd", s.dir)
	pipe, err := cmd.StderrPipe()
	require.NoError(s.t, err)
	require.NoError(s.t, cmd.Start())
	s.cmd = cmd
	ready := make(chan bool, 1)
	go func() {
		sc := bufio.NewScanner(pipe)
		said := false
		for sc.Scan() {
			if !said && strings.Contains(sc.Text(), "Server is ready") {
				said = true
				ready <- true
			}
		}
		if !said {
			ready <- false
		}
	}()
	select {
	case ok := <-ready:
		require.True(s.t, ok, "nats-server ended before it was ready")
	case <-time.After(20 * time.Second):
		s.t.Fatal("nats-server did not say it was ready")
	}
}

func (s *natsServer) stop() {
	if s.cmd != nil {
		_ = s.cmd.Process.Signal(os.Interrupt)
		_ = s.cmd.Wait()
		s.cmd = nil
	}
	if s.srv != nil {
		s.srv.Shutdown()
		s.srv.WaitForShutdown()
		s.srv = nil
	}
}

func (s *natsServer) url() string { return "nats://127.0.0.1:" + strconv.Itoa(s.port) }

// netZone starts zone i of world over layout on the server: from its
// checkpoint when it has one, or else with the entities of ents in its
// strip. What its scripts print goes to out, its notices to log.
func netZone(t testing.TB, url, world string, i int, layout zones.Layout, ents []zonetest.Ent, out, log io.Writer) *nats.Net {
	t.Helper()
	n, err := nats.Dial(nats.NetOptions{URL: url, World: world, Zone: i, Layout: layout, Log: log, Checkpoint: 20})
	require.NoError(t, err)
	snap, err := n.LastCheckpoint()
	require.NoError(t, err)
	rt := runtime.New(runtime.Options{OnError: func(err error) { t.Errorf("zone %d: %v", i, err) }})
	h, err := luabind.New(rt, luabind.Options{Dir: zoneScripts, Stdout: out, Log: io.Discard, Budget: -1})
	require.NoError(t, err)
	if snap != nil {
		require.NoError(t, h.Restore(snap))
	} else {
		zonetest.Place(t, rt, h, layout, i, ents)
	}
	require.NoError(t, n.Start(h))
	return n
}

// zoneScripts holds the scripts of the zones' tests, shared with the
// in-process zones' tests.
const zoneScripts = "../testdata/scripts"
