package nats_test

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"sync"
	"testing"
	"time"

	natsserver "github.com/nats-io/nats-server/v2/server"
	natsio "github.com/nats-io/nats.go"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/luahost/luahost/internal/syncbuf"
	"github.com/luahost/luahost/zones"
	"github.com/luahost/luahost/zones/internal/zonetest"
	"github.com/luahost/luahost/zones/nats"
)

// startPlainNATS starts an embedded NATS server without JetStream on a
// loopback port, taking messages of at most maxPayload bytes; it stops
// when the test ends.
func startPlainNATS(t testing.TB, maxPayload int32) string {
	t.Helper()
	srv, err := natsserver.NewServer(&natsserver.Options{Host: "127.0.0.1", Port: -1, MaxPayload: maxPayload, NoSigs: true, NoLog: true})
	require.NoError(t, err)
	go srv.Start()
	require.True(t, srv.ReadyForConnections(10*time.Second), "the NATS server did not start")
	t.Cleanup(srv.Shutdown)
	return srv.ClientURL()
}

// tdPlayed is what the tower-defence scene printed and hashed.
type tdPlayed struct {
	out string
	sum [32]byte
}

// tdOneProcess plays the tower-defence scene for frames frames on one
// zone in one process.
func tdOneProcess(t *testing.T, frames int) tdPlayed {
	t.Helper()
	layout, build, log := zonetest.TDBuild(t, "../testdata", 1, nil)
	var out bytes.Buffer
	w, err := zones.New(zones.Options{Layout: layout, Stdout: &out}, build)
	require.NoError(t, err)
	for range frames {
		require.NoError(t, w.Step(1.0/60))
	}
	sum, err := w.Hash()
	require.NoError(t, err)
	require.NoError(t, w.Close())
	require.Empty(t, log.All())
	return tdPlayed{out.String(), sum}
}

// tdLockstep plays the tower-defence scene for frames frames on n zones
// in lockstep over the NATS server at url, each zone on its own
// goroutine with its own link, and returns what each printed and
// hashed, and its error.
func tdLockstep(t *testing.T, url, world string, n, frames int) ([]tdPlayed, []error) {
	t.Helper()
	layout, build, log := zonetest.TDBuild(t, "../testdata", n, nil)
	played := make([]tdPlayed, n)
	errs := make([]error, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() {
			link, err := nats.DialLink(nats.LinkOptions{URL: url, World: world, Zone: i, Zones: n, Log: io.Discard})
			if err != nil {
				errs[i] = err
				return
			}
			defer link.Close()
			var out bytes.Buffer
			l, err := zones.NewLockstep(zones.LockstepOptions{Layout: layout, Zone: i, Link: link, Stdout: &out, Balance: 10, Hash: i == 0}, build)
			if err != nil {
				errs[i] = err
				return
			}
			for f := 1; ; f++ {
				end, err := l.Step(1.0/60, f == frames)
				errs[i] = errors.Join(errs[i], err)
				if end {
					break
				}
			}
			played[i].sum, err = l.Hash()
			errs[i] = errors.Join(errs[i], err, l.Close())
			played[i].out = out.String()
		})
	}
	wg.Wait()
	assert.Empty(t, log.All())
	return played, errs
}

// TestLockstepOverNATS: the tower-defence scene, its zones in lockstep
// over a real NATS server whose messages are small (every round is cut
// into many), prints in every zone byte for byte what one process
// prints, and hashes the same, on 2 and 3 zones.
func TestLockstepOverNATS(t *testing.T) {
	const frames = 120
	want := tdOneProcess(t, frames)
	url := startPlainNATS(t, 2048)
	for _, n := range []int{2, 3} {
		t.Run(fmt.Sprintf("%d zones", n), func(t *testing.T) {
			played, errs := tdLockstep(t, url, fmt.Sprintf("td%d", n), n, frames)
			for i := range n {
				require.NoError(t, errs[i], "zone %d", i)
				assert.Equal(t, want.out, played[i].out, "zone %d", i)
				assert.Equal(t, want.sum, played[i].sum, "zone %d", i)
			}
		})
	}
}

// TestLockstepClaim: a second process claiming a zone of a world in
// lockstep whose owner is connected is refused.
func TestLockstepClaim(t *testing.T) {
	url := startPlainNATS(t, 0)
	first, err := nats.DialLink(nats.LinkOptions{URL: url, World: "claimed", Zone: 1, Zones: 2, Log: io.Discard})
	require.NoError(t, err)
	defer first.Close()
	_, err = nats.DialLink(nats.LinkOptions{URL: url, World: "claimed", Zone: 1, Zones: 2, Log: io.Discard})
	require.ErrorIs(t, err, nats.ErrClaimed)
	assert.Contains(t, err.Error(), "zone 1 of world claimed is claimed by another process (pid ")
	_, err = nats.DialLink(nats.LinkOptions{URL: url, World: "claimed", Zone: 2, Zones: 2})
	assert.EqualError(t, err, "zone 2: the world has 2 zones (0 to 1)")
}

// TestLockstepStart: a zone whose peers never come up gives up after
// its start timeout, naming them; one whose peer is gone after the start
// stops the world at the next round, naming it.
func TestLockstepStart(t *testing.T) {
	url := startPlainNATS(t, 0)
	alone, err := nats.DialLink(nats.LinkOptions{URL: url, World: "alone", Zone: 0, Zones: 3, StartTimeout: 300 * time.Millisecond, Log: io.Discard})
	require.NoError(t, err)
	defer alone.Close()
	_, err = alone.Exchange([]byte("hello"))
	assert.EqualError(t, err, "zones 1 and 2 of world alone did not come up within 300ms")

	links := make([]*nats.Link, 2)
	for i := range links {
		links[i], err = nats.DialLink(nats.LinkOptions{URL: url, World: "gone", Zone: i, Zones: 2, Timeout: 300 * time.Millisecond, Log: io.Discard})
		require.NoError(t, err)
	}
	var wg sync.WaitGroup
	got := make([][][]byte, 2)
	for i, l := range links {
		wg.Go(func() {
			var xerr error
			got[i], xerr = l.Exchange(fmt.Appendf(nil, "from %d", i))
			assert.NoError(t, xerr)
		})
	}
	wg.Wait()
	for i := range got {
		assert.Equal(t, [][]byte{[]byte("from 0"), []byte("from 1")}, got[i], "zone %d", i)
	}
	require.NoError(t, links[1].Close())
	_, err = links[0].Exchange([]byte("again"))
	assert.EqualError(t, err, "no word from zone 1 of world gone for round 2 within 300ms: the world stops")
	require.NoError(t, links[0].Close())
}

// TestLockstepJunkMessages: messages on a world's lockstep subjects that
// are no round of it (no zone in the subject, a bad part header, a part
// of thousands of millions, a round far ahead) are logged and dropped,
// and the zones' rounds go on.
func TestLockstepJunkMessages(t *testing.T) {
	url := startPlainNATS(t, 0)
	var logs [2]syncbuf.Buffer
	links := make([]*nats.Link, 2)
	for i := range links {
		var err error
		links[i], err = nats.DialLink(nats.LinkOptions{URL: url, World: "junk", Zone: i, Zones: 2, Log: &logs[i]})
		require.NoError(t, err)
		t.Cleanup(func() { _ = links[i].Close() })
	}
	nc, err := natsio.Connect(url)
	require.NoError(t, err)
	defer nc.Close()
	junk := func(subject, round, part string) {
		m := natsio.NewMsg(subject)
		m.Header.Set("Luahost-Round", round)
		m.Header.Set("Luahost-Part", part)
		m.Data = []byte("junk")
		require.NoError(t, nc.PublishMsg(m))
	}
	exchange := func(round int) {
		var wg sync.WaitGroup
		got := make([][][]byte, 2)
		for i, l := range links {
			wg.Go(func() {
				var xerr error
				got[i], xerr = l.Exchange(fmt.Appendf(nil, "round %d of %d", round, i))
				assert.NoError(t, xerr)
			})
		}
		wg.Wait()
		for i := range got {
			assert.Equal(t, [][]byte{fmt.Appendf(nil, "round %d of 0", round), fmt.Appendf(nil, "round %d of 1", round)}, got[i], "zone %d", i)
		}
	}
	exchange(1)
	junk("luahost.junk.lockstep.x", "2", "0/1")
	junk("luahost.junk.lockstep.1", "2", "0")
	junk("luahost.junk.lockstep.1", "2", "0/100000000")
	junk("luahost.junk.lockstep.1", "9", "0/1")
	require.NoError(t, nc.Flush())
	exchange(2)
	exchange(3)
	log := logs[0].String()
	assert.Contains(t, log, "zone 0: dropped a message on luahost.junk.lockstep.x: no zone of the world\n")
	assert.Contains(t, log, "zone 0: dropped a message on luahost.junk.lockstep.1: not a lockstep round's\n")
	assert.Contains(t, log, "zone 0: dropped a message of round 9 on luahost.junk.lockstep.1 during round ")
}
