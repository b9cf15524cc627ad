package zones_test

import (
	"io"
	"net"
	"strconv"
	"testing"
	"time"

	natsserver "github.com/nats-io/nats-server/v2/server"
	"github.com/stretchr/testify/require"

	"github.com/luahost/luahost/luabind"
	"github.com/luahost/luahost/runtime"
	"github.com/luahost/luahost/zones"
)

// natsServer is a NATS server with JetStream embedded in the test
// process, on a loopback port, storing in a folder of the test: it can be
// stopped and started again on the same port and store.
type natsServer struct {
	t    testing.TB
	port int
	dir  string
	srv  *natsserver.Server
}

// startNATS starts an embedded NATS server; it stops when the test ends.
func startNATS(t testing.TB) *natsServer {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	port := l.Addr().(*net.TCPAddr).Port
	require.NoError(t, l.Close())
	s := &natsServer{t: t, port: port, dir: t.TempDir()}
	s.start()
	t.Cleanup(s.stop)
	return s
}

func (s *natsServer) start() {
	s.t.Helper()
	srv, err := natsserver.NewServer(&natsserver.Options{Host: "127.0.0.1", Port: s.port, JetStream: true, StoreDir: s.dir, NoLog: true, NoSigs: true})
	require.NoError(s.t, err)
	go srv.Start()
	require.True(s.t, srv.ReadyForConnections(10*time.Second), "the embedded NATS server did not start")
	s.srv = srv
}

func (s *natsServer) stop() {
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
func netZone(t testing.TB, url, world string, i int, layout zones.Layout, ents []ent, out, log io.Writer) *zones.Net {
	t.Helper()
	n, err := zones.Dial(zones.NetOptions{URL: url, World: world, Zone: i, Layout: layout, Log: log, Checkpoint: 20})
	require.NoError(t, err)
	snap, err := n.LastCheckpoint()
	require.NoError(t, err)
	rt := runtime.New(runtime.Options{OnError: func(err error) { t.Errorf("zone %d: %v", i, err) }})
	h, err := luabind.New(rt, luabind.Options{Dir: "testdata/scripts", Stdout: out, Log: io.Discard, Budget: -1})
	require.NoError(t, err)
	if snap != nil {
		require.NoError(t, h.Restore(snap))
	} else {
		for _, e := range ents {
			p := runtime.Vec3{X: e.x, Y: e.y}
			if layout.Zone(p) != i {
				continue
			}
			at := runtime.Identity()
			at.Position = p
			hd := rt.SpawnAt(at)
			for _, s := range e.scripts {
				_, err := h.Attach(hd, s, e.props)
				require.NoError(t, err)
			}
			require.NoError(t, rt.Activate(hd))
		}
	}
	require.NoError(t, n.Start(h))
	return n
}
