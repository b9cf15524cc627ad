package nats_test

import (
	"context"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	natsserver "github.com/nats-io/nats-server/v2/server"
	natsio "github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"
	"github.com/nats-io/nkeys"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/luahost/luahost/luabind"
	"github.com/luahost/luahost/runtime"
	"github.com/luahost/luahost/zones"
	"github.com/luahost/luahost/zones/internal/zonetest"
	"github.com/luahost/luahost/zones/nats"
)

// zoneIdentity makes an nkey user for zone z of world, allowed to send
// its own handoffs to the other zones only (luahost.<world>.handoff.*.<z>,
// not .<z>.<z>), and writes its seed to a file.
func zoneIdentity(t *testing.T, world string, z int) (*natsserver.NkeyUser, string) {
	t.Helper()
	kp, err := nkeys.CreateUser()
	require.NoError(t, err)
	pub, err := kp.PublicKey()
	require.NoError(t, err)
	seed, err := kp.Seed()
	require.NoError(t, err)
	file := filepath.Join(t.TempDir(), "zone"+strconv.Itoa(z)+".nk")
	require.NoError(t, os.WriteFile(file, seed, 0o600))
	pre, k := "luahost."+world+".", strconv.Itoa(z)
	return &natsserver.NkeyUser{Nkey: pub, Permissions: &natsserver.Permissions{
		Publish: &natsserver.SubjectPermission{
			Allow: []string{"$JS.API.>", "$JS.ACK.>", "$KV.>", "_INBOX.>", pre + "broadcast", pre + "blackboard", pre + "claim." + k, pre + "handoff.*." + k},
			Deny:  []string{pre + "handoff." + k + "." + k},
		},
		Subscribe: &natsserver.SubjectPermission{Allow: []string{"_INBOX.>", pre + ">"}},
	}}, file
}

// TestNetCredentials: on a server that knows one identity per zone, each
// zone connects with its own and the world runs; a client without one is
// refused, and a zone's identity cannot send a handoff to itself (as if
// from another zone).
func TestNetCredentials(t *testing.T) {
	const n = 20
	layout := zones.Layout{Edges: []float64{0}}
	u0, creds0 := zoneIdentity(t, "auth", 0)
	u1, creds1 := zoneIdentity(t, "auth", 1)
	srv, err := natsserver.NewServer(&natsserver.Options{Host: "127.0.0.1", Port: -1, JetStream: true, StoreDir: t.TempDir(),
		NoLog: true, NoSigs: true, Nkeys: []*natsserver.NkeyUser{u0, u1}})
	require.NoError(t, err)
	go srv.Start()
	require.True(t, srv.ReadyForConnections(10*time.Second))
	t.Cleanup(srv.Shutdown)
	url := srv.ClientURL()

	_, err = nats.Dial(nats.NetOptions{URL: url, World: "auth", Zone: 0, Layout: layout, Log: io.Discard})
	require.Error(t, err, "no identity")
	assert.Contains(t, err.Error(), "connect to NATS at "+url+": nats: Authorization Violation")

	zone := func(i int, creds string) *nats.Net {
		z, err := nats.Dial(nats.NetOptions{URL: url, World: "auth", Zone: i, Layout: layout, Log: io.Discard, Creds: creds, Checkpoint: 20})
		require.NoError(t, err)
		rt := runtime.New(runtime.Options{})
		h, err := luabind.New(rt, luabind.Options{Dir: zoneScripts, Stdout: io.Discard, Log: io.Discard, Budget: -1})
		require.NoError(t, err)
		zonetest.Place(t, rt, h, layout, i, zonetest.Walkers(n))
		require.NoError(t, z.Start(h))
		return z
	}
	z0, z1 := zone(0, creds0), zone(1, creds1)
	for range 10 {
		require.NoError(t, z0.Step(1.0/60))
		require.NoError(t, z1.Step(1.0/60))
		settle(t, n, z0, z1)
	}

	id, err := natsio.NkeyOptionFromSeed(creds0)
	require.NoError(t, err)
	nc, err := natsio.Connect(url, id, natsio.ErrorHandler(func(*natsio.Conn, *natsio.Subscription, error) {}))
	require.NoError(t, err)
	defer nc.Close()
	js, err := jetstream.New(nc)
	require.NoError(t, err)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	_, err = js.Publish(ctx, "luahost.auth.handoff.0.1", []byte(strider("z1-99", "strider")))
	require.Error(t, err, "zone 0's identity sends to zone 0")
	require.NoError(t, z0.Close())
	require.NoError(t, z1.Close())
}

// TestZoneCredentials: luahost zone --nats-creds connects with the zone's
// identity, without the warning; without it, a server that wants one
// refuses the zone.
func TestZoneCredentials(t *testing.T) {
	u0, creds0 := zoneIdentity(t, "authcli", 0)
	srv, err := natsserver.NewServer(&natsserver.Options{Host: "127.0.0.1", Port: -1, JetStream: true, StoreDir: t.TempDir(),
		NoLog: true, NoSigs: true, Nkeys: []*natsserver.NkeyUser{u0}})
	require.NoError(t, err)
	go srv.Start()
	require.True(t, srv.ReadyForConnections(10*time.Second))
	t.Cleanup(srv.Shutdown)
	z := startZone(t, srv.ClientURL(), "authcli", 0, "--nats-creds", creds0)
	z.stop(t)
	assert.NotContains(t, z.stderr.String(), "warning")
	cmd := exec.Command(luahostBinary(t), "zone", "testdata/walkers.json", "--nats", srv.ClientURL(), "--world", "authcli", "--zone", "0")
	out, err := cmd.CombinedOutput()
	require.Error(t, err)
	assert.Contains(t, string(out), "nats: Authorization Violation")
}
