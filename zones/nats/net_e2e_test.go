package nats_test

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	natsio "github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/luahost/luahost/internal/syncbuf"
	"github.com/luahost/luahost/zones/nats"
)

var (
	binOnce sync.Once
	binPath string
	binErr  error
)

// luahostBinary builds the luahost command once for the tests that run
// it as an operator would.
func luahostBinary(t *testing.T) string {
	t.Helper()
	binOnce.Do(func() {
		dir, err := os.MkdirTemp("", "luahost-zones-")
		if err != nil {
			binErr = err
			return
		}
		binPath = filepath.Join(dir, "luahost")
		out, err := exec.Command("go", "build", "-o", binPath, "../../cmd/luahost").CombinedOutput()
		if err != nil {
			binErr = err
			binPath = string(out)
		}
	})
	require.NoError(t, binErr, binPath)
	return binPath
}

func TestMain(m *testing.M) {
	code := m.Run()
	if binPath != "" && binErr == nil {
		os.RemoveAll(filepath.Dir(binPath))
	}
	os.Exit(code)
}

// zoneProc is a running "luahost zone" process.
type zoneProc struct {
	cmd    *exec.Cmd
	stdout *syncbuf.Buffer
	lines  chan string
	stderr *syncbuf.Buffer
	done   chan error
}

// startZone starts "luahost zone" for zone i of world on the scene
// testdata/walkers.json, and waits until it says it runs.
func startZone(t *testing.T, url, world string, i int, args ...string) *zoneProc {
	t.Helper()
	cmd := exec.Command(luahostBinary(t), append([]string{"zone", "testdata/walkers.json", "--nats", url, "--world", world, "--zone", string(rune('0' + i))}, args...)...)
	p := &zoneProc{cmd: cmd, stdout: &syncbuf.Buffer{}, stderr: &syncbuf.Buffer{}, lines: make(chan string, 100), done: make(chan error, 1)}
	cmd.Stdout = p.stdout
	pipe, err := cmd.StderrPipe()
	require.NoError(t, err)
	require.NoError(t, cmd.Start())
	go func() {
		sc := bufio.NewScanner(pipe)
		for sc.Scan() {
			_, _ = p.stderr.Write([]byte(sc.Text() + "\n"))
			select {
			case p.lines <- sc.Text():
			default:
			}
		}
		p.done <- cmd.Wait()
	}()
	t.Cleanup(func() {
		_ = cmd.Process.Kill()
		if t.Failed() {
			t.Logf("zone %d (pid %d) said:\n%s", i, cmd.Process.Pid, p.stderr.String())
			t.Logf("zone %d (pid %d) printed:\n%s", i, cmd.Process.Pid, p.stdout.String())
		}
	})
	p.waitFor(t, "running")
	return p
}

// waitFor waits for a stderr line that contains s.
func (p *zoneProc) waitFor(t *testing.T, s string) {
	t.Helper()
	deadline := time.After(30 * time.Second)
	for {
		select {
		case l := <-p.lines:
			if strings.Contains(l, s) {
				return
			}
		case err := <-p.done:
			t.Fatalf("the zone ended (%v) before saying %q; stderr:\n%s", err, s, p.stderr.String())
		case <-deadline:
			t.Fatalf("the zone did not say %q; stderr:\n%s", s, p.stderr.String())
		}
	}
}

// stop sends SIGTERM and waits for a clean exit.
func (p *zoneProc) stop(t *testing.T) {
	t.Helper()
	require.NoError(t, p.cmd.Process.Signal(syscall.SIGTERM))
	select {
	case err := <-p.done:
		require.NoError(t, err, p.stderr.String())
	case <-time.After(30 * time.Second):
		t.Fatal("the zone did not stop")
	}
}

// handoffs counts the owner records' changes of world: one per handoff
// taken (and one per entity at the start).
type handoffs struct {
	mu sync.Mutex
	n  int
	ch chan struct{}
	// seen are the values every owner record took, in order, for the
	// report of a test that failed.
	seen map[string][]string
}

func watchHandoffs(t *testing.T, url, world string) *handoffs {
	t.Helper()
	nc, err := natsio.Connect(url)
	require.NoError(t, err)
	t.Cleanup(nc.Close)
	js, err := jetstream.New(nc)
	require.NoError(t, err)
	ctx, cancel := context.WithCancel(context.Background())
	t.Cleanup(cancel)
	kv, err := js.CreateOrUpdateKeyValue(ctx, jetstream.KeyValueConfig{Bucket: "luahost_" + world + "_owners"})
	require.NoError(t, err)
	w, err := kv.WatchAll(ctx, jetstream.UpdatesOnly())
	require.NoError(t, err)
	h := &handoffs{ch: make(chan struct{}, 1), seen: map[string][]string{}}
	_, err = nc.Subscribe("luahost."+world+".handoff.>", func(m *natsio.Msg) {
		var ho struct {
			ID                  string
			Count, Epoch, Frame uint64
			From, To            int
		}
		if json.Unmarshal(m.Data, &ho) == nil {
			h.mu.Lock()
			h.seen[ho.ID] = append(h.seen[ho.ID], fmt.Sprintf("[handoff count %d from %d to %d epoch %d frame %d at %s]", ho.Count, ho.From, ho.To, ho.Epoch, ho.Frame, time.Now().Format("15:04:05.000")))
			h.mu.Unlock()
		}
	})
	require.NoError(t, err)
	go func() {
		for e := range w.Updates() {
			if e != nil {
				h.mu.Lock()
				h.seen[e.Key()] = append(h.seen[e.Key()], fmt.Sprintf("%q at %s", e.Value(), e.Created().Format("15:04:05.000")))
				h.mu.Unlock()
			}
			if e != nil && !strings.HasSuffix(string(e.Value()), " 0") {
				h.mu.Lock()
				h.n++
				h.mu.Unlock()
				select {
				case h.ch <- struct{}{}:
				default:
				}
			}
		}
	}()
	return h
}

// await waits until n more handoffs happened.
func (h *handoffs) await(t *testing.T, n int) {
	t.Helper()
	if !h.within(n, 30*time.Second) {
		t.Fatalf("fewer than %d handoffs in 30s", n)
	}
}

// within waits up to d for n more handoffs and reports whether they
// happened.
func (h *handoffs) within(n int, d time.Duration) bool {
	h.mu.Lock()
	want := h.n + n
	h.mu.Unlock()
	deadline := time.After(d)
	for {
		h.mu.Lock()
		got := h.n
		h.mu.Unlock()
		if got >= want {
			return true
		}
		select {
		case <-h.ch:
		case <-deadline:
			return false
		}
	}
}

// requireEachOnce checks the world after every zone stopped: each of the
// n walkers is held exactly once, in a checkpoint or a handoff not taken
// yet, at its highest handoff count, with its own state.
func requireEachOnce(t *testing.T, url, world string, n int, h *handoffs) {
	t.Helper()
	held, err := nats.Inventory(url, world, 2)
	require.NoError(t, err)
	top := map[string]uint64{}
	for _, h := range held {
		top[h.ID] = max(top[h.ID], h.Count)
	}
	places := map[string][]string{}
	walkers := map[float64]int{}
	for _, h := range held {
		if h.Count == top[h.ID] {
			places[h.ID] = append(places[h.ID], h.Where)
			walkers[h.N]++
		}
	}
	for id, p := range places {
		assert.Len(t, p, 1, "entity %s is held at %v", id, p)
	}
	// Once every zone stopped cleanly, no two zones hold one entity, at
	// whatever count.
	stored := map[string][]string{}
	for _, h := range held {
		if !strings.HasPrefix(h.Where, "on its way") {
			stored[h.ID] = append(stored[h.ID], h.Where)
		}
	}
	for id, p := range stored {
		assert.LessOrEqual(t, len(p), 1, "entity %s is stored at %v", id, p)
	}
	if !assert.Len(t, walkers, n, "every walker's state is held") {
		h.mu.Lock()
		for id, values := range h.seen {
			if _, ok := top[id]; !ok {
				t.Logf("entity %s held nowhere; its owner record was %s", id, strings.Join(values, ", "))
			}
		}
		h.mu.Unlock()
		trace, err := nats.Trace(url, world, 2)
		t.Logf("what NATS holds (%v):\n%s", err, trace)
	}
	for w, c := range walkers {
		assert.Equal(t, 1, c, "walker %v", w)
	}
}

// TestZoneProcesses runs the real binary twice, zones 0 and 1 of one
// world over the real nats-server on a loopback port, while 100 walkers
// stream across their edge; both stop cleanly, and every walker is in
// exactly one place with its state.
func TestZoneProcesses(t *testing.T) {
	srv := startNATSBinary(t)
	h := watchHandoffs(t, srv.url(), "procs")
	z0 := startZone(t, srv.url(), "procs", 0, "--fps", "200")
	z1 := startZone(t, srv.url(), "procs", 1, "--fps", "200")
	h.await(t, 100)
	z0.stop(t)
	z1.stop(t)
	requireEachOnce(t, srv.url(), "procs", 100, h)
	assert.Contains(t, z0.stderr.String(), "luahost zone: warning: no --nats-creds: any client of the NATS server can send this world's handoffs and records\n")
}

// TestZoneKilled kills a zone process (SIGKILL) while walkers stream
// across its edge, starts it again, and checks that it resumes from its
// checkpoint and that, once both stopped, every walker is in exactly one
// place with its state.
func TestZoneKilled(t *testing.T) {
	srv := startNATSBinary(t)
	h := watchHandoffs(t, srv.url(), "killed")
	z0 := startZone(t, srv.url(), "killed", 0, "--fps", "200", "--checkpoint", "20")
	z1 := startZone(t, srv.url(), "killed", 1, "--fps", "200", "--checkpoint", "20")
	h.await(t, 60)
	require.NoError(t, z1.cmd.Process.Kill())
	<-z1.done
	z1 = startZone(t, srv.url(), "killed", 1, "--fps", "200", "--checkpoint", "20")
	assert.Contains(t, z1.stderr.String(), "from its checkpoint of frame")
	h.await(t, 60)
	z0.stop(t)
	z1.stop(t)
	requireEachOnce(t, srv.url(), "killed", 100, h)
}

// TestZoneBadInput: the zone command refuses what cannot run, clearly.
func TestZoneBadInput(t *testing.T) {
	srv := startNATS(t)
	bin := luahostBinary(t)
	z0 := startZone(t, srv.url(), "bad", 0)
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"unknown zone", []string{"zone", "testdata/walkers.json", "--nats", srv.url(), "--world", "bad", "--zone", "2"}, "luahost zone: unknown --zone 2: the world has 2 zones (0 to 1)\n"},
		{"claimed zone", []string{"zone", "testdata/walkers.json", "--nats", srv.url(), "--world", "bad", "--zone", "0"}, "luahost zone: zone 0 of world bad is claimed by another process (pid "},
		{"no server", []string{"zone", "testdata/walkers.json", "--nats", "nats://127.0.0.1:1", "--world", "bad", "--zone", "0"}, "luahost zone: connect to NATS at nats://127.0.0.1:1: "},
		{"overlapping edges", []string{"zone", "../../cmd/luahost/testdata/zones/overlap.json", "--nats", srv.url(), "--world", "bad", "--zone", "0"}, "luahost zone: ../../cmd/luahost/testdata/zones/overlap.json:2:44: zones.edges[2]: 100 is not above edges[1], 100 (edges must increase strictly: strips may not overlap)\n"},
		{"no zones", []string{"zone", "../../cmd/luahost/testdata/zones/walk.json", "--nats", srv.url(), "--world", "bad", "--zone", "0"}, "the scene has no zones field: give --zones N\n"},
		{"replicas out of range", []string{"zone", "testdata/walkers.json", "--nats", srv.url(), "--world", "bad", "--zone", "0", "--nats-replicas", "9"}, "luahost zone: --nats-replicas must be 1 to 5\n"},
		{"hash without lockstep", []string{"zone", "testdata/walkers.json", "--nats", srv.url(), "--world", "bad", "--zone", "1", "--hash"}, "luahost zone: --hash and --peer-timeout need --lockstep: zones on their own clocks have no world-wide frame\n"},
		{"checkpoints in lockstep", []string{"zone", "testdata/walkers.json", "--nats", srv.url(), "--world", "bad", "--zone", "1", "--lockstep", "--checkpoint", "5"}, "luahost zone: --checkpoint and --nats-replicas do not apply with --lockstep: a world in lockstep keeps nothing in NATS\n"},
		{"claimed zone in lockstep", []string{"zone", "testdata/walkers.json", "--nats", srv.url(), "--world", "bad", "--zone", "0", "--lockstep"}, "luahost zone: zone 0 of world bad is claimed by another process (pid "},
		{"more replicas than servers", []string{"zone", "testdata/walkers.json", "--nats", srv.url(), "--world", "lonely", "--zone", "0", "--nats-replicas", "3"}, "luahost zone: handoff stream (3 replicas): "},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			cmd := exec.Command(bin, tc.args...)
			var stderr strings.Builder
			cmd.Stderr = &stderr
			err := cmd.Run()
			var exit *exec.ExitError
			require.ErrorAs(t, err, &exit)
			assert.Equal(t, 2, exit.ExitCode())
			assert.Contains(t, stderr.String(), tc.want)
			assert.NotContains(t, stderr.String(), "lost NATS", "a refused zone did not run")
		})
	}
	z0.stop(t)
}

// TestZoneNATSRestart stops and restarts the real nats-server under two
// zone processes while walkers stream across their edge: both say they
// lost NATS and run on, both say when it is back, the handoffs go on, and
// once both stopped every walker is in exactly one place with its state.
func TestZoneNATSRestart(t *testing.T) {
	srv := startNATSBinary(t)
	z0 := startZone(t, srv.url(), "restart", 0, "--fps", "200", "--checkpoint", "20")
	z1 := startZone(t, srv.url(), "restart", 1, "--fps", "200", "--checkpoint", "20")
	h := watchHandoffs(t, srv.url(), "restart")
	h.await(t, 40)
	srv.stop()
	z0.waitFor(t, "zone 0: lost NATS at "+srv.url())
	z1.waitFor(t, "zone 1: lost NATS at "+srv.url())
	srv.start()
	z0.waitFor(t, "zone 0: NATS is back")
	z1.waitFor(t, "zone 1: NATS is back")
	h = watchHandoffs(t, srv.url(), "restart")
	if !h.within(40, 30*time.Second) {
		t.Fatalf("no handoffs after NATS came back; zone 0 said:\n%s\nzone 1 said:\n%s", z0.stderr.String(), z1.stderr.String())
	}
	z0.stop(t)
	z1.stop(t)
	requireEachOnce(t, srv.url(), "restart", 100, h)
}

// TestZoneFenced stops the owner of zone 0 (SIGSTOP) past its claim
// timeout while walkers stream across the edge; a second process takes
// the zone; woken (SIGCONT), the first one says it was taken over and
// stops without writing, and once the others stopped every walker is in
// exactly one place with its state.
func TestZoneFenced(t *testing.T) {
	srv := startNATSBinary(t)
	h := watchHandoffs(t, srv.url(), "fenced")
	z0 := startZone(t, srv.url(), "fenced", 0, "--fps", "200", "--checkpoint", "20")
	z1 := startZone(t, srv.url(), "fenced", 1, "--fps", "200", "--checkpoint", "20")
	h.await(t, 40)
	require.NoError(t, z0.cmd.Process.Signal(syscall.SIGSTOP))
	again := startZone(t, srv.url(), "fenced", 0, "--fps", "200", "--checkpoint", "20")
	h.await(t, 40)
	require.NoError(t, z0.cmd.Process.Signal(syscall.SIGCONT))
	select {
	case err := <-z0.done:
		var exit *exec.ExitError
		require.ErrorAs(t, err, &exit, z0.stderr.String())
		assert.Equal(t, 2, exit.ExitCode())
	case <-time.After(30 * time.Second):
		t.Fatalf("the process taken over runs on; it said:\n%s", z0.stderr.String())
	}
	assert.Contains(t, z0.stderr.String(), "luahost zone: zone 0 of world fenced was taken over by another process")
	h.await(t, 40)
	again.stop(t)
	z1.stop(t)
	requireEachOnce(t, srv.url(), "fenced", 100, h)
}

// TestZoneRestartDuringOutage stops zone 0 while walkers stream across
// the edge, so that zone 1 hands walkers to it that wait in the stream;
// then zone 1 is killed and started again, and zone 0 too: zone 1 does
// not take back what it had handed on, and once both stopped every
// walker is in exactly one place.
func TestZoneRestartDuringOutage(t *testing.T) {
	srv := startNATSBinary(t)
	h := watchHandoffs(t, srv.url(), "outage")
	z0 := startZone(t, srv.url(), "outage", 0, "--fps", "200", "--checkpoint", "20")
	// Zone 1 saves no checkpoint until it stops: killed, it restarts
	// from the scene and replays every handoff it took.
	z1 := startZone(t, srv.url(), "outage", 1, "--fps", "200", "--checkpoint", "1000000")
	h.await(t, 40)
	z0.stop(t)
	awaitQueued(t, srv.url(), "outage", 0, 20)
	require.NoError(t, z1.cmd.Process.Kill())
	<-z1.done
	z1 = startZone(t, srv.url(), "outage", 1, "--fps", "200", "--checkpoint", "20")
	z0 = startZone(t, srv.url(), "outage", 0, "--fps", "200", "--checkpoint", "20")
	h.await(t, 40)
	z0.stop(t)
	z1.stop(t)
	requireEachOnce(t, srv.url(), "outage", 100, h)
}

// awaitQueued waits until at least n handoffs wait in the stream for zone.
func awaitQueued(t *testing.T, url, world string, zone, n int) {
	t.Helper()
	nc, err := natsio.Connect(url)
	require.NoError(t, err)
	defer nc.Close()
	js, err := jetstream.New(nc)
	require.NoError(t, err)
	subj := "luahost." + world + ".handoff." + strconv.Itoa(zone) + ".*"
	deadline := time.Now().Add(30 * time.Second)
	for {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		s, err := js.Stream(ctx, "LUAHOST_"+world)
		require.NoError(t, err)
		info, err := s.Info(ctx, jetstream.WithSubjectFilter(subj))
		cancel()
		require.NoError(t, err)
		// Counted by full subject: one count for each sending zone.
		queued := uint64(0)
		for _, c := range info.State.Subjects {
			queued += c
		}
		if queued >= uint64(n) {
			return
		}
		require.True(t, time.Now().Before(deadline), "fewer than %d handoffs wait for zone %d", n, zone)
		time.Sleep(20 * time.Millisecond)
	}
}

// TestZoneBacklog kills a zone process and fills its subject with 20,000
// handoffs; started again, it takes them all (a page a frame) and stops
// cleanly with every one of them in its checkpoint.
func TestZoneBacklog(t *testing.T) {
	const n = 20000
	srv := startNATSBinary(t)
	z1 := startZone(t, srv.url(), "pile", 1, "--fps", "200")
	require.NoError(t, z1.cmd.Process.Kill())
	<-z1.done
	p := newPeer(t, srv.url(), "pile")
	p.handoffs(t, "1.0", n, func(i int) string { return strider(fmt.Sprintf("z0-%d", 1000+i), "strider") })
	h := watchHandoffs(t, srv.url(), "pile")
	start := time.Now()
	z1 = startZone(t, srv.url(), "pile", 1, "--fps", "200")
	t.Logf("started in %v", time.Since(start))
	h.await(t, n)
	t.Logf("took %d handoffs in %v", n, time.Since(start))
	z1.stop(t)
	held, err := nats.Inventory(srv.url(), "pile", 2)
	require.NoError(t, err)
	taken := 0
	for _, e := range held {
		if e.Where == "checkpoint 1" && strings.HasPrefix(e.ID, "z0-") {
			taken++
		}
	}
	assert.GreaterOrEqual(t, taken, n, "every handoff is in zone 1's checkpoint")
}

// awaitStored waits until n more handoffs are stored in stream: a watch
// of the owner records may not outlive the server it was on, the
// stream's sequence does.
func awaitStored(t *testing.T, stream jetstream.Stream, n uint64) {
	t.Helper()
	last := func() uint64 {
		ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
		defer cancel()
		info, err := stream.Info(ctx)
		if err != nil {
			return 0
		}
		return info.State.LastSeq
	}
	want := last() + n
	deadline := time.Now().Add(60 * time.Second)
	for last() < want {
		require.True(t, time.Now().Before(deadline), "fewer than %d handoffs stored in 60s", n)
		time.Sleep(50 * time.Millisecond)
	}
}

// TestZoneClusterLosesANode runs zones 0 and 1 over a cluster of three
// real nats-server processes, which keeps the world's stream and buckets
// on all three by default; one server is killed while walkers stream
// across the edge, the zones run on through the others, and once both
// stopped every walker is in exactly one place.
func TestZoneClusterLosesANode(t *testing.T) {
	c := startNATSCluster(t)
	// The test's own connections go to the servers that stay.
	rest := c.nodes[1].url() + "," + c.nodes[2].url()
	h := watchHandoffs(t, rest, "cluster")
	z0 := startZone(t, c.url(), "cluster", 0, "--fps", "200", "--checkpoint", "20")
	z1 := startZone(t, c.url(), "cluster", 1, "--fps", "200", "--checkpoint", "20")
	h.await(t, 40)
	nc, err := natsio.Connect(rest)
	require.NoError(t, err)
	defer nc.Close()
	js, err := jetstream.New(nc)
	require.NoError(t, err)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	stream, err := js.Stream(ctx, "LUAHOST_cluster")
	require.NoError(t, err)
	assert.Equal(t, 3, stream.CachedInfo().Config.Replicas, "the handoff stream is on every server")
	owners, err := js.KeyValue(ctx, "luahost_cluster_owners")
	require.NoError(t, err)
	status, err := owners.Status(ctx)
	require.NoError(t, err)
	assert.Equal(t, 3, status.(interface{ StreamInfo() *jetstream.StreamInfo }).StreamInfo().Config.Replicas, "the owner records are on every server")

	c.kill(t, 0)
	awaitStored(t, stream, 100)
	z0.stop(t)
	z1.stop(t)
	requireEachOnce(t, rest, "cluster", 100, h)
}
