package nats_test

import (
	"bytes"
	"compress/gzip"
	"context"
	"io"
	"runtime/debug"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/luahost/luahost/zones"
	"github.com/luahost/luahost/zones/nats"
)

// TestNetCheckpointUnderTheCeiling: a checkpoint that unpacks to more
// than the memory ceiling lets a restore parse (a ParseCost-th of it;
// here GOMEMLIMIT makes the ceiling 256 MiB, the limit 8 MiB) is refused
// before it is parsed, with a message that says why, however far below
// the 1 GiB every checkpoint is held to it stays.
func TestNetCheckpointUnderTheCeiling(t *testing.T) {
	defer debug.SetMemoryLimit(debug.SetMemoryLimit(256 << 20))
	srv := startNATS(t)
	var big bytes.Buffer
	zw := gzip.NewWriter(&big)
	_, err := zw.Write([]byte(`{"snapshot": "` + strings.Repeat("a", 12<<20) + `"}`))
	require.NoError(t, err)
	require.NoError(t, zw.Close())
	n, err := nats.Dial(nats.NetOptions{URL: srv.url(), World: "cpceiling", Zone: 0, Layout: zones.Layout{Edges: []float64{0}}, Log: io.Discard})
	require.NoError(t, err)
	defer func() { _ = n.Close() }()
	p := newPeer(t, srv.url(), "cpceiling")
	_, err = p.saves.Put(context.Background(), "zone-0", big.Bytes())
	require.NoError(t, err)
	_, err = n.LastCheckpoint()
	require.Error(t, err)
	assert.Equal(t, "load the checkpoint of zone 0: it unpacks to more than 8388608 bytes, what the 256 MiB memory ceiling lets a restore parse (up to 32 bytes of memory a byte)", err.Error())
}
