package nats

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	natsio "github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/luahost/luahost/runtime"
	"github.com/luahost/luahost/snapshot"
)

// Held is one copy of an entity that a stopped world holds: in a zone's
// checkpoint, among its held handoffs, or in a handoff message its
// receiver has not taken.
type Held struct {
	ID    string
	Count uint64
	Where string
	// N is the walker number in the entity's first instance's self.
	N float64
}

// Inventory reads every copy of every entity that the world's zones hold
// in NATS once they all stopped.
func Inventory(url, world string, zones int) ([]Held, error) {
	nc, err := natsio.Connect(url)
	if err != nil {
		return nil, err
	}
	defer nc.Close()
	n := &Net{nc: nc, opts: NetOptions{World: world, Timeout: 5 * time.Second}}
	js, err := jetstream.New(nc)
	if err != nil {
		return nil, err
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	if n.saves, err = js.KeyValue(ctx, "luahost_"+world+"_checkpoints"); err != nil {
		return nil, err
	}
	selfN := func(self snapshot.SelfJSON) float64 {
		if t, ok := self.Value.(*runtime.Table); ok {
			f, _ := t.Get("n").(float64)
			return f
		}
		return -1
	}
	var out []Held
	for z := range zones {
		n.opts.Zone = z
		cp, err := n.loadCheckpoint()
		if err != nil {
			return nil, err
		}
		var seq uint64
		// have are the counts of the entities in the checkpoint: a
		// message for one of them is skipped on resume, as arrive does.
		have := map[string]uint64{}
		if cp != nil {
			seq = cp.Seq
			byHandle := map[string]float64{}
			for _, e := range cp.Snapshot.Entities {
				byHandle[e.ID] = selfN(e.Instances[0].Self)
			}
			for h, id := range cp.IDs {
				have[id.ID] = id.Count
				out = append(out, Held{ID: id.ID, Count: id.Count, Where: "checkpoint " + strconv.Itoa(z), N: byHandle[h]})
			}
			for _, h := range cp.Held {
				out = append(out, Held{ID: h.ID, Count: h.Count, Where: "held by " + strconv.Itoa(z), N: selfN(h.Snap.Instances[0].Self)})
			}
		}
		opts := NetOptions{World: world}
		subj := opts.handoffsTo(z)
		stream, err := js.Stream(ctx, opts.stream())
		if err != nil {
			return nil, err
		}
		// Read up to the zone's last handoff, one by one: a short wait
		// that ends early would read a busy machine's stream as one with
		// fewer handoffs, and a consumer may not be made while a cluster
		// has lost a server.
		last, err := stream.GetLastMsgForSubject(ctx, subj)
		if errors.Is(err, jetstream.ErrMsgNotFound) || err == nil && last.Sequence <= seq {
			continue
		}
		if err != nil {
			return nil, err
		}
		for s := seq + 1; s <= last.Sequence; s++ {
			m, err := stream.GetMsg(ctx, s)
			if errors.Is(err, jetstream.ErrMsgNotFound) {
				continue
			}
			if err != nil {
				return nil, err
			}
			if _, ok := opts.sender(m.Subject, z); !ok {
				continue
			}
			var h handoff
			if err := json.Unmarshal(m.Data, &h); err != nil {
				return nil, err
			}
			if c, ok := have[h.ID]; !ok || c < h.Count {
				out = append(out, Held{ID: h.ID, Count: h.Count, Where: "on its way to " + strconv.Itoa(z), N: selfN(h.Snap.Instances[0].Self)})
			}
		}
	}
	return out, nil
}

// LimitCheckpoints sets the most bytes a checkpoint may unpack to until
// the test ends.
func LimitCheckpoints(t interface{ Cleanup(func()) }, n int64) {
	old := maxCheckpointSize
	maxCheckpointSize = n
	t.Cleanup(func() { maxCheckpointSize = old })
}

// Crash stops the zone as a kill would: no last checkpoint, no onDestroy,
// the connection dropped.
func (n *Net) Crash() {
	n.mu.Lock()
	n.closed = true
	n.mu.Unlock()
	if n.cons != nil {
		n.cons.Stop()
	}
	if n.watchStop != nil {
		n.watchStop()
	}
	n.nc.Close()
}

// Mute stops the zone's answers to claims, as a process stopped
// (SIGSTOP) or cut off does not answer: another process may claim it.
func (n *Net) Mute() { _ = n.claim.Unsubscribe() }

// Deafen stops the zone's watches of the owner and claim records, as a
// process that has not heard of a change yet.
func (n *Net) Deafen() { n.stop() }

// Stall makes the zone's last frame look long ago, as after a stop.
func (n *Net) Stall() { n.lastStep = n.lastStep.Add(-time.Hour) }

// Trace tells, for a census that failed, every handoff the stream still
// holds, each zone's checkpoint sequence and the state of its handoff
// consumer.
func Trace(url, world string, zones int) (string, error) {
	nc, err := natsio.Connect(url)
	if err != nil {
		return "", err
	}
	defer nc.Close()
	js, err := jetstream.New(nc)
	if err != nil {
		return "", err
	}
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	opts := NetOptions{World: world, Timeout: 5 * time.Second}
	n := &Net{nc: nc, opts: opts}
	if n.saves, err = js.KeyValue(ctx, "luahost_"+world+"_checkpoints"); err != nil {
		return "", err
	}
	stream, err := js.Stream(ctx, opts.stream())
	if err != nil {
		return "", err
	}
	info, err := stream.Info(ctx)
	if err != nil {
		return "", err
	}
	var b strings.Builder
	fmt.Fprintf(&b, "stream: first %d last %d\n", info.State.FirstSeq, info.State.LastSeq)
	for z := range zones {
		n.opts.Zone = z
		if cp, err := n.loadCheckpoint(); err == nil && cp != nil {
			fmt.Fprintf(&b, "zone %d: checkpoint seq %d\n", z, cp.Seq)
		}
		if c, err := stream.Consumer(ctx, "zone-"+strconv.Itoa(z)); err == nil {
			ci := c.CachedInfo()
			fmt.Fprintf(&b, "zone %d: consumer from %d, delivered %d, ack floor %d, pending %d, ack pending %d\n",
				z, ci.Config.OptStartSeq, ci.Delivered.Stream, ci.AckFloor.Stream, ci.NumPending, ci.NumAckPending)
		}
	}
	for seq := info.State.FirstSeq; seq <= info.State.LastSeq && info.State.Msgs > 0; seq++ {
		m, err := stream.GetMsg(ctx, seq)
		if errors.Is(err, jetstream.ErrMsgNotFound) {
			continue
		}
		if err != nil {
			return b.String(), err
		}
		var h handoff
		if json.Unmarshal(m.Data, &h) == nil {
			fmt.Fprintf(&b, "seq %d %s at %s: %s count %d from %d epoch %d frame %d\n", seq, m.Subject, m.Time.Format("15:04:05.000"), h.ID, h.Count, h.From, h.Epoch, h.Frame)
		}
	}
	return b.String(), nil
}
