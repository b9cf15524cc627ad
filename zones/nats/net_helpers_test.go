package nats_test

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	natsserver "github.com/nats-io/nats-server/v2/server"
	natsio "github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
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
	// bin is the nats-server binary ("": embedded), cmd its process,
	// args its arguments instead of the single server's.
	bin  string
	args []string
	cmd  *exec.Cmd
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
	args := s.args
	if args == nil {
		args = []string{"-js", "-a", "127.0.0.1", "-p", strconv.Itoa(s.port), "-sd", s.dir}
	}
	cmd := exec.Command(s.bin, args...)
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

// natsCluster is a cluster of three real nats-server processes with
// JetStream on loopback ports, each with its own store.
type natsCluster struct {
	nodes []*natsServer
}

// startNATSCluster starts three nats-server processes routed to each
// other and waits until their JetStream has a leader. It needs the
// binary: without it the test skips, saying so, and fails in CI.
func startNATSCluster(t *testing.T) *natsCluster {
	t.Helper()
	bin, err := exec.LookPath("nats-server")
	if err != nil {
		if os.Getenv("CI") != "" {
			t.Fatalf("nats-server is not installed (.ci/run installs it): %v", err)
		}
		t.Skip("nats-server is not installed: a cluster needs the binary")
	}
	ports := make([]int, 6)
	for i := range ports {
		l, err := net.Listen("tcp", "127.0.0.1:0")
		require.NoError(t, err)
		ports[i] = l.Addr().(*net.TCPAddr).Port
		require.NoError(t, l.Close())
	}
	var routes []string
	for i := range 3 {
		routes = append(routes, "nats-route://127.0.0.1:"+strconv.Itoa(ports[3+i]))
	}
	c := &natsCluster{}
	for i := range 3 {
		dir := t.TempDir()
		conf := filepath.Join(dir, "node.conf")
		text := fmt.Sprintf("server_name: n%d\nlisten: 127.0.0.1:%d\njetstream { store_dir: %q }\ncluster { name: luahost, listen: 127.0.0.1:%d, routes: [%s] }\n",
			i, ports[i], filepath.Join(dir, "store"), ports[3+i], strings.Join(routes, ", "))
		require.NoError(t, os.WriteFile(conf, []byte(text), 0o644))
		s := &natsServer{t: t, port: ports[i], dir: dir, bin: bin, args: []string{"-c", conf}}
		s.start()
		t.Cleanup(s.stop)
		c.nodes = append(c.nodes, s)
	}
	c.awaitJetStream(t)
	return c
}

// url returns the cluster's client URLs, separated by commas.
func (c *natsCluster) url() string {
	var urls []string
	for _, s := range c.nodes {
		urls = append(urls, s.url())
	}
	return strings.Join(urls, ",")
}

// awaitJetStream waits until the cluster answers JetStream requests (a
// meta leader is elected).
func (c *natsCluster) awaitJetStream(t *testing.T) {
	t.Helper()
	nc, err := natsio.Connect(c.url())
	require.NoError(t, err)
	defer nc.Close()
	js, err := jetstream.New(nc)
	require.NoError(t, err)
	deadline := time.Now().Add(30 * time.Second)
	for {
		ctx, cancel := context.WithTimeout(context.Background(), time.Second)
		_, err := js.AccountInfo(ctx)
		cancel()
		if err == nil {
			return
		}
		require.True(t, time.Now().Before(deadline), "the cluster's JetStream did not come up: %v", err)
		time.Sleep(100 * time.Millisecond)
	}
}

// kill stops server i at once, as a crash would.
func (c *natsCluster) kill(t *testing.T, i int) {
	t.Helper()
	s := c.nodes[i]
	require.NoError(t, s.cmd.Process.Kill())
	_ = s.cmd.Wait()
	s.cmd = nil
}
