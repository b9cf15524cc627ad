package nats_test

import (
	"bytes"
	"fmt"
	"io"
	"reflect"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/luahost/luahost/internal/syncbuf"
	"github.com/luahost/luahost/zones"
	"github.com/luahost/luahost/zones/internal/zonetest"
	"github.com/luahost/luahost/zones/nats"
)

// settle takes what NATS delivers to the zones until they hold want
// entities between them, waiting for a delivery to any of them, failing
// the test after a while.
func settle(t *testing.T, want int, zs ...*nats.Net) { settleB(t, want, zs...) }

func settleB(t testing.TB, want int, zs ...*nats.Net) {
	t.Helper()
	// The first case is the deadline, then each zone's deliveries.
	cases := []reflect.SelectCase{{Dir: reflect.SelectRecv, Chan: reflect.ValueOf(time.After(10 * time.Second))}}
	for _, z := range zs {
		cases = append(cases, reflect.SelectCase{Dir: reflect.SelectRecv, Chan: reflect.ValueOf(z.Delivered())})
	}
	for {
		total := 0
		for _, z := range zs {
			require.NoError(t, z.Take())
			total += z.Entities()
		}
		if total == want {
			return
		}
		if i, _, _ := reflect.Select(cases); i == 0 {
			t.Fatalf("the zones hold %d entities, want %d", total, want)
		}
	}
}

// walkerLines checks the shutdown lines of walkers: each walker once,
// updated frames times, no frame skipped or repeated.
func walkerLines(t *testing.T, out string, n, frames int) {
	t.Helper()
	seen := make(map[int]bool)
	for l := range strings.SplitSeq(strings.TrimSpace(out), "\n") {
		var i, updates, bad int
		_, err := fmt.Sscanf(l, "walker %d updates %d bad %d", &i, &updates, &bad)
		require.NoError(t, err, l)
		assert.False(t, seen[i], "walker %d is in two zones", i)
		seen[i] = true
		assert.Equal(t, frames, updates, "walker %d's updates", i)
		assert.Zero(t, bad, "walker %d skipped or repeated a frame", i)
	}
	assert.Len(t, seen, n, "every walker reached the end")
}

// TestNetHandoffExactlyOnce runs two zones over an embedded NATS server
// and walks 200 entities back and forth across their edge, stepping the
// zones in lockstep: after every frame each entity is in exactly one
// zone, and each was updated once in every frame.
func TestNetHandoffExactlyOnce(t *testing.T) {
	const n, frames = 200, 60
	srv := startNATS(t)
	layout := zones.Layout{Edges: []float64{0}}
	var out0, out1 bytes.Buffer
	z0 := netZone(t, srv.url(), "walk", 0, layout, zonetest.Walkers(n), &out0, io.Discard)
	z1 := netZone(t, srv.url(), "walk", 1, layout, zonetest.Walkers(n), &out1, io.Discard)
	for range frames {
		require.NoError(t, z0.Step(1.0/60))
		require.NoError(t, z1.Step(1.0/60))
		settle(t, n, z0, z1)
	}
	require.NoError(t, z0.Close())
	require.NoError(t, z1.Close())
	walkerLines(t, out0.String()+out1.String(), n, frames)
}

func TestNetClaim(t *testing.T) {
	srv := startNATS(t)
	layout := zones.Layout{Edges: []float64{0}}
	z := netZone(t, srv.url(), "claim", 1, layout, nil, io.Discard, io.Discard)
	_, err := nats.Dial(nats.NetOptions{URL: srv.url(), World: "claim", Zone: 1, Layout: layout, Log: io.Discard})
	require.ErrorIs(t, err, nats.ErrClaimed)
	assert.Contains(t, err.Error(), "zone 1 of world claim is claimed by another process (pid ")
	_, err = nats.Dial(nats.NetOptions{URL: srv.url(), World: "claim", Zone: 2, Layout: layout, Log: io.Discard})
	assert.EqualError(t, err, "zone 2: the world has 2 zones (0 to 1)")
	_, err = nats.Dial(nats.NetOptions{URL: srv.url(), World: "claim", Zone: 0, Layout: zones.Layout{Edges: []float64{5}}, Log: io.Discard})
	assert.EqualError(t, err, "world claim is cut along x at [0], not along x at [5] as given here: every zone of a world needs the same edges")
	require.NoError(t, z.Close())
	again, err := nats.Dial(nats.NetOptions{URL: srv.url(), World: "claim", Zone: 1, Layout: layout, Log: io.Discard})
	require.NoError(t, err, "a zone whose owner stopped can be claimed again at once")
	require.NoError(t, again.Close())
}

// TestNetResume stops a zone and starts it again: it resumes from the
// checkpoint its stop saved, and its walkers count every frame of both
// runs exactly once.
func TestNetResume(t *testing.T) {
	srv := startNATS(t)
	layout := zones.Layout{Edges: []float64{100}}
	ents := zonetest.Walkers(5)
	var out bytes.Buffer
	z := netZone(t, srv.url(), "resume", 0, layout, ents, io.Discard, io.Discard)
	for range 30 {
		require.NoError(t, z.Step(1.0/60))
	}
	require.NoError(t, z.Close())
	z = netZone(t, srv.url(), "resume", 0, layout, ents, &out, io.Discard)
	for range 10 {
		require.NoError(t, z.Step(1.0/60))
	}
	require.NoError(t, z.Close())
	walkerLines(t, out.String(), 5, 40)
}

// lineWriter is a log that tests can wait on, line by line.
type lineWriter struct {
	syncbuf.Buffer
	lines chan string
}

func newLineWriter() *lineWriter { return &lineWriter{lines: make(chan string, 1000)} }

func (l *lineWriter) Write(p []byte) (int, error) {
	for s := range strings.SplitSeq(strings.TrimSuffix(string(p), "\n"), "\n") {
		select {
		case l.lines <- s:
		default:
		}
	}
	return l.Buffer.Write(p)
}

// waitFor waits for a logged line that contains s, stepping z meanwhile
// (a zone that lost NATS runs on).
func (l *lineWriter) waitFor(t *testing.T, s string, z *nats.Net) {
	t.Helper()
	deadline := time.After(15 * time.Second)
	for {
		select {
		case line := <-l.lines:
			if strings.Contains(line, s) {
				return
			}
		case <-deadline:
			t.Fatalf("no line with %q in:\n%s", s, l.String())
		case <-time.After(20 * time.Millisecond):
			require.NoError(t, z.Step(1.0/60))
		}
	}
}

// TestNetLost stops the NATS server under two running zones: the zones
// keep running their own entities, hold the handoffs they cannot send and
// say so; once the server is back, the held handoffs go out and every
// walker ends in exactly one zone.
func TestNetLost(t *testing.T) {
	const n = 40
	srv := startNATS(t)
	layout := zones.Layout{Edges: []float64{0}}
	var out0, out1 bytes.Buffer
	log0 := newLineWriter()
	z0 := netZone(t, srv.url(), "lost", 0, layout, zonetest.Walkers(n), &out0, log0)
	z1 := netZone(t, srv.url(), "lost", 1, layout, zonetest.Walkers(n), &out1, io.Discard)
	for range 5 {
		require.NoError(t, z0.Step(1.0/60))
		require.NoError(t, z1.Step(1.0/60))
		settle(t, n, z0, z1)
	}
	srv.stop()
	log0.waitFor(t, "zone 0: lost NATS at "+srv.url(), z0)
	log0.waitFor(t, "outgoing handoffs until NATS takes them", z0)
	assert.Positive(t, z0.Entities(), "zone 0 runs its own entities")
	assert.NotEmpty(t, z0.Transit(), "zone 0 holds what leaves it")
	srv.start()
	log0.waitFor(t, "zone 0: NATS is back at "+srv.url(), z0)
	deadline := time.After(15 * time.Second)
	for len(z0.Transit())+len(z1.Transit()) > 0 {
		require.NoError(t, z0.Step(1.0/60))
		require.NoError(t, z1.Step(1.0/60))
		select {
		case <-deadline:
			t.Fatalf("handoffs still in transit: %v %v", z0.Transit(), z1.Transit())
		case <-z0.Delivered():
		case <-z1.Delivered():
		case <-time.After(20 * time.Millisecond):
		}
	}
	settle(t, n, z0, z1)
	require.NoError(t, z0.Close())
	require.NoError(t, z1.Close())
	seen := map[int]bool{}
	for l := range strings.SplitSeq(strings.TrimSpace(out0.String()+out1.String()), "\n") {
		var i int
		_, err := fmt.Sscanf(l, "walker %d", &i)
		require.NoError(t, err, l)
		assert.False(t, seen[i], "walker %d is in two zones", i)
		seen[i] = true
	}
	assert.Len(t, seen, n)
}

// TestNetBroadcastAndBlackboard: over NATS too, a broadcast reaches every
// zone's listeners at the start of a later frame, before their update,
// and blackboard writes reach the other zone, the higher zone winning
// two writes of one key in the same frame.
func TestNetBroadcastAndBlackboard(t *testing.T) {
	srv := startNATS(t)
	layout := zones.Layout{Edges: []float64{0}}
	ents := []zonetest.Ent{
		{X: -5, Scripts: []string{"caster"}},
		{X: -3, Scripts: []string{"listener", "board"}},
		{X: 5, Scripts: []string{"listener", "board"}},
	}
	out0, out1 := &syncbuf.Buffer{}, &syncbuf.Buffer{}
	z0 := netZone(t, srv.url(), "casts", 0, layout, ents, out0, io.Discard)
	z1 := netZone(t, srv.url(), "casts", 1, layout, ents, out1, io.Discard)
	heard := func(out *syncbuf.Buffer, zone string) bool {
		wrote := regexp.MustCompile("zone " + zone + " other [0-9]+ shared 1\n")
		return strings.Contains(out.String(), "ping sent 1 got") && wrote.MatchString(out.String())
	}
	for f := 0; !heard(out0, "0") || !heard(out1, "1"); f++ {
		require.Less(t, f, 300, "zone 0 printed:\n%s\nzone 1 printed:\n%s", out0.String(), out1.String())
		require.NoError(t, z0.Step(1.0/60))
		require.NoError(t, z1.Step(1.0/60))
		select {
		case <-z0.Delivered():
		case <-z1.Delivered():
		case <-time.After(20 * time.Millisecond):
		}
	}
	require.NoError(t, z0.Close())
	require.NoError(t, z1.Close())
	for _, out := range []string{out0.String(), out1.String()} {
		for l := range strings.SplitSeq(out, "\n") {
			var sent, got, zone, updated int
			if _, err := fmt.Sscanf(l, "ping sent %d got %d zone %d updated %d", &sent, &got, &zone, &updated); err == nil {
				assert.Greater(t, got, 1, l)
				assert.Equal(t, got-1, updated, "delivered before the frame's updates: %s", l)
			}
		}
	}
}

// TestNetEntityValue: over NATS too, an entity value kept in zone 0 of
// an entity that walked into zone 1 answers alive() true and zone() 1,
// its position is an error that says where it went, and once the entity
// dies over there the value is stale.
func TestNetEntityValue(t *testing.T) {
	srv := startNATS(t)
	layout := zones.Layout{Edges: []float64{0}}
	ents := []zonetest.Ent{
		{Name: "m", X: -2.5, Scripts: []string{"mover"}},
		{X: -5, Scripts: []string{"watcher"}, Props: map[string]any{"target": "m"}},
	}
	out0 := &syncbuf.Buffer{}
	z0 := netZone(t, srv.url(), "values", 0, layout, ents, out0, io.Discard)
	z1 := netZone(t, srv.url(), "values", 1, layout, ents, io.Discard, io.Discard)
	for f := 1; f <= 6; f++ {
		require.NoError(t, z0.Step(1.0/60))
		require.NoError(t, z1.Step(1.0/60))
		want := 2
		if f == 6 {
			want = 1 // the mover killed itself
		}
		settle(t, want, z0, z1)
	}
	moved := "../testdata/scripts/watcher.lua:8: entity(1:1) is in another zone now (zone 1): a zone's scripts reach only the entities of their own zone"
	stale := "frame\t%d\tfalse\tnil\tfalse\t../testdata/scripts/watcher.lua:8: stale entity handle entity(1:1)\n"
	for f := 7; !strings.Contains(out0.String(), fmt.Sprintf(stale, f-1)); f++ {
		require.Less(t, f, 300, out0.String())
		require.NoError(t, z0.Step(1.0/60))
		select {
		case <-z0.Delivered():
		case <-time.After(20 * time.Millisecond):
		}
	}
	assert.True(t, strings.HasPrefix(out0.String(), "frame\t1\ttrue\t0\ttrue\t-2.5\t0\t0\n"+
		"frame\t2\ttrue\t0\ttrue\t-1.5\t0\t0\n"+
		"frame\t3\ttrue\t0\ttrue\t-0.5\t0\t0\n"+
		"frame\t4\ttrue\t1\tfalse\t"+moved+"\n"+
		"frame\t5\ttrue\t1\tfalse\t"+moved+"\n"+
		"frame\t6\ttrue\t1\tfalse\t"+moved+"\n"), out0.String())
	require.NoError(t, z0.Close())
	require.NoError(t, z1.Close())
}
