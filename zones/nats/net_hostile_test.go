package nats_test

import (
	"bytes"
	"compress/gzip"
	"context"
	"fmt"
	"io"
	"strings"
	"testing"
	"time"

	natsio "github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/luahost/luahost/internal/syncbuf"
	"github.com/luahost/luahost/zones"
	"github.com/luahost/luahost/zones/internal/zonetest"
	"github.com/luahost/luahost/zones/nats"
)

// peer is a hostile or buggy process on a world's subjects.
type peer struct {
	nc     *natsio.Conn
	js     jetstream.JetStream
	owners jetstream.KeyValue
	saves  jetstream.KeyValue
	world  string
}

func newPeer(t *testing.T, url, world string) *peer {
	t.Helper()
	nc, err := natsio.Connect(url)
	require.NoError(t, err)
	t.Cleanup(nc.Close)
	js, err := jetstream.New(nc)
	require.NoError(t, err)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	owners, err := js.KeyValue(ctx, "luahost_"+world+"_owners")
	require.NoError(t, err)
	saves, err := js.KeyValue(ctx, "luahost_"+world+"_checkpoints")
	require.NoError(t, err)
	return &peer{nc: nc, js: js, owners: owners, saves: saves, world: world}
}

// handoff publishes data on the handoff subject route names: TO.FROM,
// the one of zone FROM's handoffs to zone TO, or any other last part.
func (p *peer) handoff(t *testing.T, route string, data string) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	_, err := p.js.Publish(ctx, "luahost."+p.world+".handoff."+route, []byte(data))
	require.NoError(t, err)
}

// handoffs publishes count messages, data(i), on the handoff subject
// route names (as handoff), together, a window at a time: with more
// unacknowledged than the client allows (4,000), a publish would fail
// as stalled once NATS is slow to answer, as on a loaded machine.
func (p *peer) handoffs(t *testing.T, route string, count int, data func(i int) string) {
	t.Helper()
	const window = 1000
	fs := make([]jetstream.PubAckFuture, count)
	for i := range count {
		if i > 0 && i%window == 0 {
			select {
			case <-p.js.PublishAsyncComplete():
			case <-time.After(30 * time.Second):
				t.Fatalf("handoffs %d to %d were not stored", i-window, i-1)
			}
		}
		var err error
		fs[i], err = p.js.PublishAsync("luahost."+p.world+".handoff."+route, []byte(data(i)))
		require.NoError(t, err)
	}
	for _, f := range fs {
		select {
		case <-f.Ok():
		case err := <-f.Err():
			require.NoError(t, err)
		case <-time.After(30 * time.Second):
			t.Fatal("a handoff was not stored")
		}
	}
}

func (p *peer) owner(t *testing.T, id, value string) {
	t.Helper()
	_, err := p.owners.Put(context.Background(), id, []byte(value))
	require.NoError(t, err)
}

// strider is a handoff of a strider (../testdata/scripts) to zone 1.
func strider(id, script string) string {
	return `{"to":1,"from":0,"frame":0,"id":"` + id + `","count":1,"snap":{"id":"1:1","position":[5,0,0],` +
		`"instances":[{"seq":1,"script":"` + script + `","self":{"speed":10,"dir":1}}]}}`
}

// TestNetHostilePeer: junk on a zone's subjects is logged and skipped,
// and the zone steps on; a handoff it cannot take leaves the owner record
// naming the sender, which keeps the entity; a handoff over an owner
// record that is junk is taken and the record written again; a handoff
// sent twice is taken once.
func TestNetHostilePeer(t *testing.T) {
	srv := startNATS(t)
	layout := zones.Layout{Edges: []float64{0}}
	log := newLineWriter()
	z := netZone(t, srv.url(), "junk", 1, layout, []zonetest.Ent{{X: 5, Scripts: []string{"strider"}}}, io.Discard, log)
	p := newPeer(t, srv.url(), "junk")
	tests := []struct {
		name string
		send func()
		want string // in the zone's log
		held int    // entities in the zone after it
	}{
		{"a handoff that is not JSON", func() { p.handoff(t, "1.0", `{"to": 1,`) },
			"zone 1: a handoff message that is not one, skipped: unexpected end of JSON input", 1},
		{"a handoff of the wrong types", func() { p.handoff(t, "1.0", `{"to": "one", "snap": []}`) },
			"zone 1: a handoff message that is not one, skipped: json: cannot unmarshal", 1},
		{"a handoff of a script the zone does not have", func() {
			p.owner(t, "z0-900", "0 0")
			p.handoff(t, "1.0", strider("z0-900", "nosuch"))
		}, `zone 1: handoff of z0-900 from zone 0 not taken, left with its sender: `, 1},
		{"a handoff whose owner record is junk", func() {
			p.owner(t, "z0-901", "junk")
			p.handoff(t, "1.0", strider("z0-901", "strider"))
		}, `zone 1: handoff of z0-901 from zone 0 taken over a junk owner record: bad owner record "junk"`, 2},
		{"an owner record that is junk", func() { p.owner(t, "z0-902", "1 two") },
			`zone 1: owner record of z0-902 ignored: bad owner record "1 two"`, 2},
		{"a broadcast that is not JSON", func() { require.NoError(t, p.nc.Publish("luahost.junk.broadcast", []byte("[1,"))) },
			"zone 1: a broadcast message that is not one, skipped: ", 2},
		{"a broadcast of the wrong types", func() {
			require.NoError(t, p.nc.Publish("luahost.junk.broadcast", []byte(`{"zone": "x", "event": 5}`)))
		}, "zone 1: a broadcast message that is not one, skipped: json: cannot unmarshal", 2},
		{"a blackboard write of the wrong types", func() {
			require.NoError(t, p.nc.Publish("luahost.junk.blackboard", []byte(`{"key": 5, "value": {"$nope": 1}}`)))
		}, "zone 1: a blackboard message that is not one, skipped: ", 2},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			tc.send()
			log.waitFor(t, tc.want, z)
			assert.Equal(t, tc.held, z.Entities(), "nothing lost, only what may be taken taken")
		})
	}
	e, err := p.owners.Get(context.Background(), "z0-900")
	require.NoError(t, err)
	assert.Equal(t, "0 0", string(e.Value()), "the record still names the sender")
	// A handoff published twice under two message ids is taken once.
	p.owner(t, "z0-903", "0 0")
	p.handoff(t, "1.0", strider("z0-903", "strider"))
	p.handoff(t, "1.0", strider("z0-903", "strider"))
	settle(t, 3, z)
	for range 3 {
		require.NoError(t, z.Step(1.0/60))
		settle(t, 3, z)
	}
	e, err = p.owners.Get(context.Background(), "z0-903")
	require.NoError(t, err)
	assert.Equal(t, "1 1 1", string(e.Value()), "zone 1 at count 1 under its first claim")
	require.NoError(t, z.Close())
}

// TestNetBadCheckpoint: a checkpoint that is not gzip, or that unpacks
// to more than the limit (a gzip bomb), is refused with a message that
// says so, without filling the memory.
func TestNetBadCheckpoint(t *testing.T) {
	nats.LimitCheckpoints(t, 1<<20)
	srv := startNATS(t)
	var bomb bytes.Buffer
	zw := gzip.NewWriter(&bomb)
	_, err := zw.Write([]byte(`{"snapshot": "` + strings.Repeat("a", 4<<20) + `"}`))
	require.NoError(t, err)
	require.NoError(t, zw.Close())
	var junk bytes.Buffer
	zw = gzip.NewWriter(&junk)
	_, err = zw.Write([]byte(`{"snapshot": {"format": 5}}`))
	require.NoError(t, err)
	require.NoError(t, zw.Close())
	tests := []struct {
		name string
		data []byte
		want string
	}{
		{"not gzip", []byte(`{"snapshot": null, "ids": {}}`), "load the checkpoint of zone 0: gzip: invalid header"},
		{"a gzip bomb", bomb.Bytes(), "load the checkpoint of zone 0: it unpacks to more than 1048576 bytes"},
		{"junk inside", junk.Bytes(), "load the checkpoint of zone 0: "},
	}
	for i, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			world := "cp" + string(rune('a'+i))
			n, err := nats.Dial(nats.NetOptions{URL: srv.url(), World: world, Zone: 0, Layout: zones.Layout{Edges: []float64{0}}, Log: io.Discard})
			require.NoError(t, err)
			defer func() { _ = n.Close() }()
			p := newPeer(t, srv.url(), world)
			_, err = p.saves.Put(context.Background(), "zone-0", tc.data)
			require.NoError(t, err)
			_, err = n.LastCheckpoint()
			require.Error(t, err)
			assert.Contains(t, err.Error(), tc.want)
		})
	}
}

// TestNetTooLarge: an entity larger than NATS takes in one message stays
// with its sender, held, and the zone says why once (not every frame);
// so does a checkpoint that cannot be stored.
func TestNetTooLarge(t *testing.T) {
	srv := startNATS(t)
	layout := zones.Layout{Edges: []float64{0}}
	log := newLineWriter()
	z0 := netZone(t, srv.url(), "large", 0, layout, []zonetest.Ent{{X: -2.5, Scripts: []string{"hoard"}}}, io.Discard, log)
	z1 := netZone(t, srv.url(), "large", 1, layout, nil, io.Discard, io.Discard)
	for range 45 {
		require.NoError(t, z0.Step(1.0/60))
		require.NoError(t, z1.Step(1.0/60))
	}
	require.NoError(t, z1.Take())
	assert.Equal(t, []string{"z0-1"}, z0.Transit(), "the sender holds the entity")
	assert.Equal(t, 0, z1.Entities())
	require.NoError(t, z0.Close())
	require.NoError(t, z1.Close())
	out := log.String()
	assert.Equal(t, 1, strings.Count(out, "zone 0: handoff of z0-1 to zone 1 cannot be sent, held: nats: maximum payload exceeded ("), out)
	assert.Contains(t, out, "bytes; raise the server's max_payload)")
	assert.Equal(t, 1, strings.Count(out, "zone 0: checkpoint not saved: "), out)
	assert.Contains(t, out, "trying again every frame")
}

// TestNetJunkHandoff: a message on a zone's handoff subject that is JSON
// but no handoff ({}) is skipped and said once, and the handoffs behind
// it are taken, also when the zone starts again with junk waiting.
func TestNetJunkHandoff(t *testing.T) {
	srv := startNATS(t)
	layout := zones.Layout{Edges: []float64{0}}
	log := newLineWriter()
	z := netZone(t, srv.url(), "junkmsg", 1, layout, nil, io.Discard, log)
	p := newPeer(t, srv.url(), "junkmsg")
	p.handoff(t, "1.0", `{}`)
	p.owner(t, "z0-1", "0 0")
	p.handoff(t, "1.0", strider("z0-1", "strider"))
	settle(t, 1, z)
	require.NoError(t, z.Close())
	p.handoff(t, "1.0", `{"to": 1, "from": 0, "id": "z0-2", "count": 1}`)
	p.owner(t, "z0-3", "0 0")
	p.handoff(t, "1.0", strider("z0-3", "strider"))
	z = netZone(t, srv.url(), "junkmsg", 1, layout, nil, io.Discard, log)
	settle(t, 2, z)
	for range 3 {
		require.NoError(t, z.Step(1.0/60))
	}
	require.NoError(t, z.Close())
	assert.Equal(t, 2, strings.Count(log.String(), "zone 1: a handoff message that is not one, skipped: "), log.String())
	assert.Contains(t, log.String(), `skipped: entity id "": want letters`)
	assert.Contains(t, log.String(), `skipped: handoff of z0-2: no entity`)
}

// TestNetForgedWrite: a blackboard write stamped far in the future (by
// clock or by frame) wins its key for a frame or two, not for ever: the
// writer's next writes win again.
func TestNetForgedWrite(t *testing.T) {
	srv := startNATS(t)
	layout := zones.Layout{Edges: []float64{0}}
	ents := []zonetest.Ent{{X: -3, Scripts: []string{"board"}}, {X: 5, Scripts: []string{"board"}}}
	out1 := &syncbuf.Buffer{}
	z0 := netZone(t, srv.url(), "forged", 0, layout, ents, io.Discard, io.Discard)
	z1 := netZone(t, srv.url(), "forged", 1, layout, ents, out1, io.Discard)
	p := newPeer(t, srv.url(), "forged")
	lockstep := func(frames int) {
		for range frames {
			require.NoError(t, z0.Step(1.0/60))
			require.NoError(t, z1.Step(1.0/60))
			select {
			case <-z1.Delivered():
			case <-time.After(50 * time.Millisecond):
			}
		}
	}
	lockstep(3)
	require.NoError(t, p.nc.Publish("luahost.forged.blackboard", []byte(`{"zone":0,"time":1e308,"frame":18446744073709551615,"key":"from0","value":99}`)))
	for f := 0; !strings.Contains(out1.String(), "other 99 "); f++ {
		require.Less(t, f, 100, "the forged write never arrived:\n%s", out1.String())
		lockstep(1)
	}
	lockstep(6)
	lines := strings.Split(strings.TrimSpace(out1.String()), "\n")
	assert.NotContains(t, lines[len(lines)-1], "other 99 ", "the forged write wins for ever")
	require.NoError(t, z0.Close())
	require.NoError(t, z1.Close())
}

// forged is a handoff of a strider with world id id and count count,
// from zone from to zone to, under claim epoch epoch.
func forged(id string, from, to int, count, epoch uint64) string {
	return fmt.Sprintf(`{"to":%d,"from":%d,"frame":0,"id":%q,"count":%d,"epoch":%d,"snap":{"id":"1:1","position":[%d,0,0],`+
		`"instances":[{"seq":1,"script":"strider","self":{"speed":0,"dir":1}}]}}`, to, from, id, count, epoch, 10*to-5)
}

// TestNetForgedHandoff: handoffs that do not match the owner record of
// their entity are not taken: one of an entity the zone holds, one whose
// count runs ahead of the record, one from a zone the record does not
// name, one from an older claim of the sender, one of an entity that
// died; nor are handoffs whose subject is not their sender's, such as
// one that zone 2 (or anyone without credentials) publishes as its own
// and whose body says it comes from zone 0, which the owner record would
// believe: each is said once and skipped. A handoff behind each is taken.
// Every entity is held once, the dead one by no zone.
func TestNetForgedHandoff(t *testing.T) {
	srv := startNATS(t)
	layout := zones.Layout{Edges: []float64{0, 1000}}
	ents := []zonetest.Ent{
		{X: -500, Scripts: []string{"strider"}},
		{X: -0.5, Scripts: []string{"mortal"}, Props: map[string]any{"n": 1, "dies": 3}},
	}
	log0, log1 := newLineWriter(), newLineWriter()
	z0 := netZone(t, srv.url(), "forgery", 0, layout, ents, io.Discard, log0)
	z1 := netZone(t, srv.url(), "forgery", 1, layout, ents, io.Discard, log1)
	p := newPeer(t, srv.url(), "forgery")
	for f := 0; ; f++ {
		e, err := p.owners.Get(context.Background(), "z0-2")
		if err == nil && string(e.Value()) == "dead 1" {
			break
		}
		require.Less(t, f, 100, "the mortal did not die in zone 1")
		require.NoError(t, z0.Step(1.0/60))
		require.NoError(t, z1.Step(1.0/60))
		select {
		case <-z1.Delivered():
		case <-time.After(50 * time.Millisecond):
		}
	}
	tests := []struct {
		name  string
		data  string
		route string // the subject's last part: TO.FROM
		log   *lineWriter
		z     *nats.Net
		want  string
	}{
		{"to the zone that holds it", forged("z0-1", 1, 0, 9, 1), "0.1", log0, z0, ""},
		{"a count ahead of the record", forged("z0-1", 0, 1, 9, 1), "1.0", log1, z1, "zone 1: handoff of z0-1 (count 9) waits: its owner record is at count 0"},
		{"from a zone the record does not name", forged("z0-1", 2, 1, 1, 1), "1.2", log1, z1, "zone 1: handoff of z0-1 from zone 2 not taken: its owner record says zone 0 (epoch 1)"},
		{"from an older claim", forged("z0-1", 0, 1, 1, 0), "1.0", log1, z1, "zone 1: handoff of z0-1 from zone 0 not taken: sent by a process taken over (epoch 0)"},
		{"of an entity that died", forged("z0-2", 0, 1, 1, 1), "1.0", log1, z1, ""},
		{"from a zone its subject does not name", forged("z0-1", 0, 1, 1, 1), "1.2", log1, z1,
			"zone 1: a handoff message that is not one, skipped: handoff of z0-1: from zone 0, published as zone 2's on luahost.forgery.handoff.1.2"},
		{"on a subject that names no zone", forged("z0-1", 0, 1, 1, 1), "1.x", log1, z1,
			"zone 1: a handoff message that is not one, skipped: handoff of z0-1: from zone 0, published on luahost.forgery.handoff.1.x, which names no sending zone"},
		{"on a zone number written otherwise", forged("z0-1", 0, 1, 1, 1), "1.00", log1, z1,
			"zone 1: a handoff message that is not one, skipped: handoff of z0-1: from zone 0, published on luahost.forgery.handoff.1.00, which names no sending zone"},
	}
	for i, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			to := tc.route[:1]
			p.handoff(t, tc.route, tc.data)
			if tc.want != "" {
				tc.log.waitFor(t, tc.want, tc.z)
			}
			// A handoff behind it, taken once it was dealt with.
			p.handoff(t, to+".2", forged(fmt.Sprintf("z2-%d", i+1), 2, int(to[0]-'0'), 1, 1))
			settle(t, 2+i, z0, z1)
			for range 3 {
				require.NoError(t, z0.Step(1.0/60))
				require.NoError(t, z1.Step(1.0/60))
			}
			settle(t, 2+i, z0, z1)
		})
	}
	e, err := p.owners.Get(context.Background(), "z0-1")
	require.NoError(t, err)
	assert.Equal(t, "0 0 1", string(e.Value()), "the strider is zone 0's")
	require.NoError(t, z0.Close())
	require.NoError(t, z1.Close())
	assert.Equal(t, 3, strings.Count(log1.String(), "zone 1: a handoff message that is not one, skipped: "), "each said once:\n%s", log1.String())
}
