package nats_test

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/nats-io/nats.go/jetstream"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/luahost/luahost/internal/syncbuf"
	"github.com/luahost/luahost/luabind"
	"github.com/luahost/luahost/runtime"
	"github.com/luahost/luahost/zones"
	"github.com/luahost/luahost/zones/internal/zonetest"
	"github.com/luahost/luahost/zones/nats"
)

// bouncer is a walker that crosses the edge at 0 into zone 1 in its first
// frame and back into zone 0 in its fourth, where it stays.
func bouncer() []zonetest.Ent {
	return []zonetest.Ent{{X: -0.5, Scripts: []string{"walker"}, Props: map[string]any{"n": 7, "lo": -1000, "hi": 1, "speed": 60, "dir": 1}}}
}

// TestNetRestartAfterHandingOn: zone 1 takes an entity, hands it back to
// zone 0 while zone 0 is down, and is killed; started again (from the
// scene, which does not hold the entity), it replays the handoff it took
// first but does not take the entity back: once zone 0 is up again, the
// entity is in zone 0 only.
func TestNetRestartAfterHandingOn(t *testing.T) {
	srv := startNATS(t)
	layout := zones.Layout{Edges: []float64{0}}
	ents := bouncer()
	var out bytes.Buffer
	z0 := netZone(t, srv.url(), "handon", 0, layout, ents, io.Discard, io.Discard)
	z1 := netZone(t, srv.url(), "handon", 1, layout, ents, io.Discard, io.Discard)
	require.NoError(t, z0.Step(1.0/60))
	require.NoError(t, z1.Step(1.0/60))
	settle(t, 1, z1)
	require.NoError(t, z0.Close())
	for f := 0; z1.Entities() > 0; f++ {
		require.Less(t, f, 10, "the walker did not leave zone 1")
		require.NoError(t, z1.Step(1.0/60))
	}
	z1.Crash()
	z1 = netZone(t, srv.url(), "handon", 1, layout, ents, &out, io.Discard)
	run(t, 2, z1)
	assert.Zero(t, z1.Entities(), "zone 1 took the walker back")
	z0 = netZone(t, srv.url(), "handon", 0, layout, ents, &out, io.Discard)
	run(t, 4, z0, z1)
	assert.Equal(t, 1, z0.Entities(), "the walker is back in zone 0")
	require.NoError(t, z0.Close())
	require.NoError(t, z1.Close())
	census(t, out.String(), map[int]bool{7: true})
}

// census checks the shutdown lines of walkers that ran on stopped zones:
// each walker of alive ended exactly once, and no other walker did (a dead
// one came back).
func census(t *testing.T, out string, alive map[int]bool) {
	t.Helper()
	seen := map[int]int{}
	for l := range strings.SplitSeq(strings.TrimSpace(out), "\n") {
		var i, updates, bad int
		_, err := fmt.Sscanf(l, "walker %d updates %d bad %d", &i, &updates, &bad)
		require.NoError(t, err, l)
		seen[i]++
	}
	for i := range alive {
		assert.Equal(t, 1, seen[i], "walker %d ended in %d zones", i, seen[i])
	}
	for i, c := range seen {
		assert.True(t, alive[i], "walker %d came back %d times", i, c)
	}
}

// run steps the zones frames times, each frame after what NATS delivered
// meanwhile (waiting a little for it).
func run(t *testing.T, frames int, zs ...*nats.Net) {
	t.Helper()
	for range frames {
		for _, z := range zs {
			require.NoError(t, z.Step(1.0/60))
		}
		select {
		case <-zs[0].Delivered():
		case <-time.After(50 * time.Millisecond):
		}
	}
}

// TestNetDeadStayDead: an entity walks from zone 0 into zone 1 and dies
// there; zone 0, killed and started again from a checkpoint that still
// holds it, does not bring it back.
func TestNetDeadStayDead(t *testing.T) {
	srv := startNATS(t)
	layout := zones.Layout{Edges: []float64{0}}
	ents := []zonetest.Ent{{X: -0.5, Scripts: []string{"mortal"}, Props: map[string]any{"n": 3, "dies": 3}}}
	out := &syncbuf.Buffer{}
	z0 := netZone(t, srv.url(), "dead", 0, layout, ents, io.Discard, io.Discard)
	require.NoError(t, z0.Close(), "a checkpoint that holds the entity")
	z0 = netZone(t, srv.url(), "dead", 0, layout, ents, out, io.Discard)
	z1 := netZone(t, srv.url(), "dead", 1, layout, ents, out, io.Discard)
	// It dies in frame 3: zone 1 holds it before that frame, however
	// slow the delivery.
	run(t, 1, z0, z1)
	settle(t, 1, z0, z1)
	run(t, 3, z0, z1)
	require.Contains(t, out.String(), "walker 3 ", "the entity died in zone 1")
	z0.Crash()
	z0 = netZone(t, srv.url(), "dead", 0, layout, ents, out, io.Discard)
	assert.Zero(t, z0.Entities(), "the dead entity is back")
	run(t, 2, z0, z1)
	require.NoError(t, z0.Close())
	require.NoError(t, z1.Close())
	census(t, out.String(), map[int]bool{3: true})
}

// TestNetFenced: a zone's owner that does not answer (stopped) is taken
// over by a second process; the first one's next frame fails with
// ErrFenced, whether it learns of the new claim from NATS or finds it
// after a long pause, and it stops without saving a checkpoint and
// without running its entities' onDestroy: the second one holds every
// walker, once.
func TestNetFenced(t *testing.T) {
	const n = 10
	for _, stall := range []bool{false, true} {
		t.Run(fmt.Sprintf("stall %v", stall), func(t *testing.T) {
			srv := startNATS(t)
			layout := zones.Layout{Edges: []float64{100}}
			ents := zonetest.Walkers(n)
			old := &syncbuf.Buffer{}
			log := newLineWriter()
			z := netZone(t, srv.url(), "fenced", 0, layout, ents, old, log)
			run(t, 3, z)
			z.Mute()
			if stall {
				z.Stall()
			}
			var out bytes.Buffer
			again := netZone(t, srv.url(), "fenced", 0, layout, ents, &out, io.Discard)
			if !stall {
				log.waitFor(t, "zone 0: was taken over by another process", again)
			}
			require.ErrorIs(t, z.Step(1.0/60), nats.ErrFenced)
			require.ErrorIs(t, z.Step(1.0/60), nats.ErrFenced, "it stays fenced")
			require.NoError(t, z.Close())
			assert.Empty(t, old.String(), "no onDestroy in the process taken over")
			run(t, 3, again)
			require.NoError(t, again.Close())
			census(t, out.String(), func() map[int]bool {
				m := map[int]bool{}
				for i := range n {
					m[i] = true
				}
				return m
			}())
		})
	}
}

// TestNetTakeoverSendsAgain: a process taken over, that has not heard of
// it yet, hands an entity on in the same frame as the new owner of its
// zone does; the receiver refuses the stale copy and takes the new
// owner's, which NATS must not drop as a copy of the stale one.
func TestNetTakeoverSendsAgain(t *testing.T) {
	srv := startNATS(t)
	layout := zones.Layout{Edges: []float64{0}}
	ents := bouncer()
	out := &syncbuf.Buffer{}
	log := newLineWriter()
	stale := netZone(t, srv.url(), "takeover", 0, layout, ents, out, io.Discard)
	z1 := netZone(t, srv.url(), "takeover", 1, layout, ents, out, log)
	stale.Mute()
	stale.Deafen()
	again := netZone(t, srv.url(), "takeover", 0, layout, ents, out, io.Discard)
	require.NoError(t, stale.Step(1.0/60), "the stale process hands the walker on")
	require.NoError(t, again.Step(1.0/60), "so does the new owner")
	log.waitFor(t, "zone 1: handoff of z0-1 from zone 0 not taken", z1)
	settle(t, 1, again, z1)
	require.ErrorIs(t, stale.Step(1.0/60), nats.ErrFenced)
	require.NoError(t, stale.Close())
	run(t, 6, again, z1)
	require.NoError(t, again.Close())
	require.NoError(t, z1.Close())
	census(t, out.String(), map[int]bool{7: true})
}

// TestNetRestartPastAckFloor: a zone restarted from its checkpoint takes
// the handoffs stored after it even when its consumer's acknowledgement
// floor is past them, as NATS moves it once nothing is pending: the
// floor is not where the zone got to.
func TestNetRestartPastAckFloor(t *testing.T) {
	srv := startNATS(t)
	layout := zones.Layout{Edges: []float64{0}}
	ents := []zonetest.Ent{{X: 0.5, Scripts: []string{"walker"}, Props: map[string]any{"n": 4, "lo": -1000, "hi": 1000, "speed": 60, "dir": -1}}}
	out := &syncbuf.Buffer{}
	z0 := netZone(t, srv.url(), "floor", 0, layout, ents, out, io.Discard)
	z1 := netZone(t, srv.url(), "floor", 1, layout, ents, out, io.Discard)
	require.NoError(t, z0.Close())
	for f := 0; z1.Entities() > 0; f++ {
		require.Less(t, f, 10, "the walker did not leave zone 1")
		require.NoError(t, z1.Step(1.0/60))
	}
	p := newPeer(t, srv.url(), "floor")
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	stream, err := p.js.Stream(ctx, "LUAHOST_floor")
	require.NoError(t, err)
	// The handoff delivered, and acknowledged, to someone else: the
	// floor moves past it.
	require.NoError(t, stream.DeleteConsumer(ctx, "zone-0"))
	cons, err := stream.CreateConsumer(ctx, jetstream.ConsumerConfig{Durable: "zone-0", FilterSubject: "luahost.floor.handoff.0.*", AckPolicy: jetstream.AckExplicitPolicy})
	require.NoError(t, err)
	batch, err := cons.Fetch(1, jetstream.FetchMaxWait(5*time.Second))
	require.NoError(t, err)
	for m := range batch.Messages() {
		require.NoError(t, m.DoubleAck(ctx))
	}
	require.NoError(t, batch.Error())
	ci, err := cons.Info(ctx)
	require.NoError(t, err)
	require.NotZero(t, ci.AckFloor.Stream, "the floor moved")
	z0 = netZone(t, srv.url(), "floor", 0, layout, ents, out, io.Discard)
	run(t, 3, z0)
	assert.Equal(t, 1, z0.Entities(), "zone 0 took the walker")
	require.NoError(t, z0.Close())
	require.NoError(t, z1.Close())
	census(t, out.String(), map[int]bool{4: true})
}

// TestNetBacklog: with thousands of handoffs in the stream, their sender
// and their receiver, both stopped, start again: the sender reads the
// backlog in pages (saying how far it got), the receiver takes it a page
// a frame, and every entity ends in the receiver exactly once.
func TestNetBacklog(t *testing.T) {
	const n = 20000
	srv := startNATS(t)
	layout := zones.Layout{Edges: []float64{0}}
	z0 := netZone(t, srv.url(), "backlog", 0, layout, nil, io.Discard, io.Discard)
	z1 := netZone(t, srv.url(), "backlog", 1, layout, nil, io.Discard, io.Discard)
	z0.Crash()
	z1.Crash()
	p := newPeer(t, srv.url(), "backlog")
	p.handoffs(t, "1.0", n, func(i int) string { return strider(fmt.Sprintf("z0-%d", i+1), "strider") })
	log0 := newLineWriter()
	start := time.Now()
	z0 = netZone(t, srv.url(), "backlog", 0, layout, nil, io.Discard, log0)
	t.Logf("the sender started in %v", time.Since(start))
	assert.Contains(t, log0.String(), "zone 0: read the handoff stream: 20000 messages in ")
	start = time.Now()
	z1 = netZone(t, srv.url(), "backlog", 1, layout, nil, io.Discard, io.Discard)
	for f := 0; z1.Entities() < n; f++ {
		require.Less(t, f, 2000, "zone 1 holds %d entities", z1.Entities())
		run(t, 1, z1)
	}
	t.Logf("the receiver took them in %v", time.Since(start))
	assert.Zero(t, z0.Entities())
	require.NoError(t, z0.Close())
	require.NoError(t, z1.Close())
}

// TestNetStartFails: a zone whose start fails (here: its start timeout
// ends before it read the stream) says how far it got, and closing it
// runs no onDestroy: its entities are not ended for failing to load.
func TestNetStartFails(t *testing.T) {
	srv := startNATS(t)
	layout := zones.Layout{Edges: []float64{0}}
	ents := zonetest.Walkers(10)
	z0 := netZone(t, srv.url(), "nostart", 0, layout, ents, io.Discard, io.Discard)
	z1 := netZone(t, srv.url(), "nostart", 1, layout, ents, io.Discard, io.Discard)
	run(t, 20, z0, z1)
	z0.Crash()
	z1.Crash()
	n, err := nats.Dial(nats.NetOptions{URL: srv.url(), World: "nostart", Zone: 0, Layout: layout, Log: io.Discard, StartTimeout: time.Nanosecond})
	require.NoError(t, err)
	snap, err := n.LastCheckpoint()
	require.NoError(t, err)
	require.NotNil(t, snap)
	var out bytes.Buffer
	rt := runtime.New(runtime.Options{})
	h, err := luabind.New(rt, luabind.Options{Dir: zoneScripts, Stdout: &out, Log: io.Discard, Budget: -1})
	require.NoError(t, err)
	require.NoError(t, h.Restore(snap))
	err = n.Start(h)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "a longer start timeout reads more")
	require.NoError(t, n.Close())
	assert.Empty(t, out.String(), "no onDestroy for entities that failed to load")
}

// TestNetAcks: a zone's handoffs come through its durable consumer, and
// the zone acknowledges them once a checkpoint holds what it made of
// them (junk at once); killed before its next checkpoint, it is given
// again what it took since, and takes it once.
func TestNetAcks(t *testing.T) {
	srv := startNATS(t)
	layout := zones.Layout{Edges: []float64{0}}
	z := netZone(t, srv.url(), "acks", 1, layout, nil, io.Discard, io.Discard)
	p := newPeer(t, srv.url(), "acks")
	p.handoff(t, "1.0", `{}`)
	for i := range 3 {
		p.handoff(t, "1.0", strider(fmt.Sprintf("z0-%d", i+1), "strider"))
	}
	settle(t, 3, z)
	run(t, 20, z)
	ctx := context.Background()
	stream, err := p.js.Stream(ctx, "LUAHOST_acks")
	require.NoError(t, err)
	cons, err := stream.Consumer(ctx, "zone-1")
	require.NoError(t, err, "the zone's durable consumer")
	info, err := cons.Info(ctx)
	require.NoError(t, err)
	assert.Equal(t, uint64(4), info.AckFloor.Stream, "every message acknowledged after the checkpoint")
	assert.Zero(t, info.NumAckPending)
	for i := 3; i < 5; i++ {
		p.handoff(t, "1.0", strider(fmt.Sprintf("z0-%d", i+1), "strider"))
	}
	settle(t, 5, z)
	z.Crash()
	z = netZone(t, srv.url(), "acks", 1, layout, nil, io.Discard, io.Discard)
	settle(t, 5, z)
	run(t, 3, z)
	assert.Equal(t, 5, z.Entities())
	require.NoError(t, z.Close())
}

// TestNetHeldAcrossRestart: a handoff that NATS could not store (here:
// the stream was gone) is held in the sender's checkpoint; the sender,
// started again under a new claim, sends it, and the receiver takes it.
func TestNetHeldAcrossRestart(t *testing.T) {
	srv := startNATS(t)
	layout := zones.Layout{Edges: []float64{0}}
	ents := bouncer()
	z0 := netZone(t, srv.url(), "heldcp", 0, layout, ents, io.Discard, io.Discard)
	p := newPeer(t, srv.url(), "heldcp")
	require.NoError(t, p.js.DeleteStream(context.Background(), "LUAHOST_heldcp"))
	run(t, 2, z0)
	require.Equal(t, []string{"z0-1"}, z0.Transit(), "the walker is held")
	require.NoError(t, z0.Close())
	var out bytes.Buffer
	z0 = netZone(t, srv.url(), "heldcp", 0, layout, ents, &out, io.Discard)
	z1 := netZone(t, srv.url(), "heldcp", 1, layout, ents, &out, io.Discard)
	for f := 0; z1.Entities() == 0; f++ {
		require.Less(t, f, 50, "zone 1 never took the held walker")
		run(t, 1, z0, z1)
	}
	require.NoError(t, z0.Close())
	require.NoError(t, z1.Close())
	census(t, out.String(), map[int]bool{7: true})
}
