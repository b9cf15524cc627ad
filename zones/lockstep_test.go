package zones_test

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/luahost/luahost/luabind"
	"github.com/luahost/luahost/runtime"
	"github.com/luahost/luahost/zones"
	"github.com/luahost/luahost/zones/internal/zonetest"
)

// memLink is one zone's link of a world whose zones run in one process,
// each in its own goroutine, as if in processes of their own: every
// round goes through channels, one from each zone to each other zone.
type memLink struct {
	zone int
	// ch[from][to] carries zone from's rounds to zone to, in order.
	ch [][]chan []byte
	// wait is how long a round waits for a zone's part.
	wait time.Duration
}

// memLinks returns the links of a world of n zones.
func memLinks(n int) []*memLink {
	ch := make([][]chan []byte, n)
	for from := range ch {
		ch[from] = make([]chan []byte, n)
		for to := range ch[from] {
			// A zone runs at most one round ahead of the slowest.
			ch[from][to] = make(chan []byte, 2)
		}
	}
	links := make([]*memLink, n)
	for i := range links {
		links[i] = &memLink{zone: i, ch: ch, wait: 20 * time.Second}
	}
	return links
}

func (l *memLink) Exchange(msg []byte) ([][]byte, error) {
	n := len(l.ch)
	for to := range n {
		if to != l.zone {
			l.ch[l.zone][to] <- msg
		}
	}
	parts := make([][]byte, n)
	parts[l.zone] = msg
	for from := range n {
		if from == l.zone {
			continue
		}
		select {
		case parts[from] = <-l.ch[from][l.zone]:
		case <-time.After(l.wait):
			return nil, fmt.Errorf("no word from zone %d", from)
		}
	}
	return parts, nil
}

// lockstepResult is what one zone of a world in lockstep printed and
// hashed.
type lockstepResult struct {
	out  string
	sum  [32]byte
	err  error
	hash error
}

// playLockstep plays the tower-defence scene for frames frames on n
// zones in lockstep, each on its own goroutine over links, its edges
// moved every balance frames, the world's hash asked by zone n-1 only,
// and returns what each zone printed and hashed.
func playLockstep(t *testing.T, n, frames, balance int) []lockstepResult {
	t.Helper()
	layout, build, log := zonetest.TDBuild(t, "testdata", n, nil)
	links := memLinks(n)
	res := make([]lockstepResult, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() {
			var out bytes.Buffer
			l, err := zones.NewLockstep(zones.LockstepOptions{Layout: layout, Zone: i, Link: links[i], Stdout: &out, Balance: balance, Hash: i == n-1}, build)
			if err != nil {
				res[i].err = err
				return
			}
			for f := 1; ; f++ {
				end, err := l.Step(1.0/60, f == frames)
				if err != nil {
					res[i].err = err
				}
				if end {
					require.Equal(t, frames, f, "zone %d: the world ends after the frame asked", i)
					break
				}
			}
			res[i].sum, res[i].hash = l.Hash()
			res[i].err = errors.Join(res[i].err, l.Close())
			res[i].out = out.String()
		})
	}
	wg.Wait()
	assert.Empty(t, log.All())
	return res
}

// TestLockstepTowerDefence: the tower-defence scene played by zones that
// only exchange messages (as processes do over NATS) prints, in every
// zone, byte for byte what one process prints, and hashes the same, on
// 1, 2 and 4 zones, with fixed edges and with edges that follow the
// work.
func TestLockstepTowerDefence(t *testing.T) {
	const frames = 200
	want, wantSum, _ := playTD(t, 1, frames)
	for _, tc := range []struct{ zones, balance int }{{1, 0}, {2, 0}, {4, 0}, {2, 1}, {4, 3}} {
		t.Run(fmt.Sprintf("%d zones, balance %d", tc.zones, tc.balance), func(t *testing.T) {
			for i, r := range playLockstep(t, tc.zones, frames, tc.balance) {
				require.NoError(t, r.err, "zone %d", i)
				require.NoError(t, r.hash, "zone %d", i)
				assert.Equal(t, want, r.out, "zone %d", i)
				assert.Equal(t, wantSum, r.sum, "zone %d", i)
			}
		})
	}
}

// TestLockstepLayoutsDiffer: zones given different edges refuse to run
// together, each saying which zone differs.
func TestLockstepLayoutsDiffer(t *testing.T) {
	links := memLinks(2)
	layouts := []zones.Layout{{Edges: []float64{0}}, {Edges: []float64{5}}}
	errs := make([]error, 2)
	var wg sync.WaitGroup
	for i := range 2 {
		wg.Go(func() {
			l, err := zones.NewLockstep(zones.LockstepOptions{Layout: layouts[i], Zone: i, Link: links[i], Stdout: io.Discard}, emptyBuild)
			if err == nil {
				err = l.Close()
			}
			errs[i] = err
		})
	}
	wg.Wait()
	require.Error(t, errs[0])
	assert.Contains(t, errs[0].Error(), "zone 1 is cut along x at [5], not along x at [0] as zone 0: every zone of a world needs the same edges")
	require.Error(t, errs[1])
	assert.Contains(t, errs[1].Error(), "zone 0 is cut along x at [0], not along x at [5] as zone 1")
}

// TestLockstepPeerGone: a zone whose peer stops answering ends with an
// error that names the peer, and still runs its own onDestroy.
func TestLockstepPeerGone(t *testing.T) {
	links := memLinks(2)
	var out bytes.Buffer
	started := make(chan error, 1)
	go func() {
		// Zone 1 takes part in the first exchange, then is gone.
		l, err := zones.NewLockstep(zones.LockstepOptions{Layout: zones.Layout{Edges: []float64{0}}, Zone: 1, Link: links[1], Stdout: io.Discard}, emptyBuild)
		if err == nil {
			// Before the world ended: its own shutdown alone.
			err = l.Close()
		}
		started <- err
	}()
	l, err := zones.NewLockstep(zones.LockstepOptions{Layout: zones.Layout{Edges: []float64{0}}, Zone: 0, Link: links[0], Stdout: &out}, emptyBuild)
	require.NoError(t, err)
	require.NoError(t, <-started)
	links[0].wait = 200 * time.Millisecond
	end, err := l.Step(1.0/60, false)
	assert.True(t, end)
	require.Error(t, err)
	assert.Contains(t, err.Error(), "zone 0: no word from zone 1")
	_, err = l.Step(1.0/60, false)
	assert.Error(t, err, "the world ended")
	require.NoError(t, l.Close())
}

// emptyBuild builds a zone without scripts or entities.
func emptyBuild(_ int, out io.Writer, join func(*luabind.Host)) error {
	h, err := luabind.New(runtime.New(runtime.Options{}), luabind.Options{Dir: "testdata/scripts", Stdout: out, Log: io.Discard, Budget: -1})
	if err != nil {
		return err
	}
	join(h)
	return nil
}

// TestLockstepPeerJunk: a peer whose part of a round carries an effect
// that does not read (not luahost's) ends the world with an error that
// names the peer and the effect, never a silent divergence.
func TestLockstepPeerJunk(t *testing.T) {
	links := memLinks(2)
	peer := make(chan error, 1)
	go func() {
		// Zone 1: a step part with a junk effect, then an empty view part
		// (no parcels back, no entities).
		_, err := links[1].Exchange([]byte(`{"effects":[{"kind":"bogus","to":"0"}]}`))
		if err == nil {
			_, err = links[1].Exchange([]byte{0, 0})
		}
		peer <- err
	}()
	_, err := zones.NewLockstep(zones.LockstepOptions{Layout: zones.Layout{Edges: []float64{0}}, Zone: 0, Link: links[0], Stdout: io.Discard}, emptyBuild)
	require.Error(t, err)
	require.NoError(t, <-peer)
	assert.Contains(t, err.Error(), `zone 0: effect 0 of zone 1: `)
	assert.Contains(t, err.Error(), `effect of kind "bogus"`)
}
