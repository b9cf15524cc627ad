package nats_test

import (
	"fmt"
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

// TestNetCredentials: on a server that knows one identity per zone, the
// three zones of a world connect each with its own and walkers cross both
// edges; a client without one is refused; and a zone's identity may
// publish its own handoffs to the other zones only: the server refuses a
// handoff it publishes as another zone's (which the owner record could
// believe) or to itself.
func TestNetCredentials(t *testing.T) {
	const n = 20
	layout := zones.Layout{Edges: []float64{-5, 5}}
	users := make([]*natsserver.NkeyUser, layout.Zones())
	creds := make([]string, layout.Zones())
	for z := range users {
		users[z], creds[z] = zoneIdentity(t, "auth", z)
	}
	srv, err := natsserver.NewServer(&natsserver.Options{Host: "127.0.0.1", Port: -1, JetStream: true, StoreDir: t.TempDir(),
		NoLog: true, NoSigs: true, Nkeys: users})
	require.NoError(t, err)
	go srv.Start()
	require.True(t, srv.ReadyForConnections(10*time.Second))
	t.Cleanup(srv.Shutdown)
	url := srv.ClientURL()

	_, err = nats.Dial(nats.NetOptions{URL: url, World: "auth", Zone: 0, Layout: layout, Log: io.Discard})
	require.Error(t, err, "no identity")
	assert.Contains(t, err.Error(), "connect to NATS at "+url+": nats: Authorization Violation")

	zs := make([]*nats.Net, layout.Zones())
	for i := range zs {
		z, err := nats.Dial(nats.NetOptions{URL: url, World: "auth", Zone: i, Layout: layout, Log: io.Discard, Creds: creds[i], Checkpoint: 20})
		require.NoError(t, err)
		rt := runtime.New(runtime.Options{})
		h, err := luabind.New(rt, luabind.Options{Dir: zoneScripts, Stdout: io.Discard, Log: io.Discard, Budget: -1})
		require.NoError(t, err)
		zonetest.Place(t, rt, h, layout, i, zonetest.Walkers(n))
		require.NoError(t, z.Start(h))
		zs[i] = z
	}
	for range 10 {
		for _, z := range zs {
			require.NoError(t, z.Step(1.0/60))
		}
		settle(t, n, zs...)
	}
	for _, z := range zs {
		require.NoError(t, z.Close())
	}

	tests := []struct {
		name     string
		zone     int // whose identity publishes
		to, from int // the handoff's zones, in its subject and body
		ok       bool
	}{
		{"its own handoff", 2, 1, 2, true},
		{"as another zone", 2, 1, 0, false},
		{"to itself", 2, 2, 2, false},
		{"to itself as another zone", 0, 0, 1, false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			refused := make(chan error, 1)
			id, err := natsio.NkeyOptionFromSeed(creds[tc.zone])
			require.NoError(t, err)
			nc, err := natsio.Connect(url, id, natsio.ErrorHandler(func(_ *natsio.Conn, _ *natsio.Subscription, err error) {
				select {
				case refused <- err:
				default:
				}
			}))
			require.NoError(t, err)
			defer nc.Close()
			js, err := jetstream.New(nc)
			require.NoError(t, err)
			subj := fmt.Sprintf("luahost.auth.handoff.%d.%d", tc.to, tc.from)
			f, err := js.PublishAsync(subj, []byte(forged(fmt.Sprintf("z%d-99", tc.from), tc.from, tc.to, 1, 1)))
			require.NoError(t, err)
			select {
			case <-f.Ok():
				assert.True(t, tc.ok, "zone %d's identity stored a handoff on %s", tc.zone, subj)
			case err := <-f.Err():
				t.Fatalf("publish on %s: %v", subj, err)
			case err := <-refused:
				assert.False(t, tc.ok, "zone %d's identity is refused its own handoff: %v", tc.zone, err)
				require.ErrorIs(t, err, natsio.ErrPermissionViolation)
				assert.Contains(t, err.Error(), `Permissions Violation for Publish to "`+subj+`"`)
			case <-time.After(10 * time.Second):
				t.Fatalf("the server neither stored nor refused a handoff on %s", subj)
			}
		})
	}
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
