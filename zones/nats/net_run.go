package nats

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"

	natsio "github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/luahost/luahost/luabind"
	"github.com/luahost/luahost/runtime"
)

// Join makes host the zone's host before its starting entities exist
// (optional: Start joins a host that has not joined), so that what their
// scripts' setup writes to the blackboard or broadcasts reaches the other
// zones after the first frame.
func (n *Net) Join(host *luabind.Host) {
	n.host, n.rt = host, host.Runtime()
	host.SetZone(n.opts.Zone, n.elsewhere)
	host.OnBroadcast(func(event string, data any) {
		n.outCasts = append(n.outCasts, netCast{Zone: n.opts.Zone, Event: event, Data: runtime.PlainJSON{Value: data}})
	})
	n.rt.Blackboard().OnSet(n.record)
}

// Start runs the zone on host, which holds the zone's starting entities:
// those of the scene in its strip, or its last checkpoint restored
// (LastCheckpoint). Every entity whose owner record names another zone or
// a higher handoff count is dropped (it moved on before a crash); every
// other one is recorded as the zone's. Then the handoffs addressed to the
// zone since its checkpoint are taken, in order, between frames, and the
// world's broadcasts and blackboard writes flow in.
func (n *Net) Start(host *luabind.Host) error {
	if n.host != host {
		n.Join(host)
	}
	cp, err := n.loadCheckpoint()
	if err != nil {
		return err
	}
	if cp != nil {
		n.made, n.seq, n.held, n.graves = cp.Made, cp.Seq, cp.Held, cp.Graves
		for s, id := range cp.IDs {
			h, err := runtime.ParseHandleID(s)
			if err != nil {
				return fmt.Errorf("checkpoint: %w", err)
			}
			n.own(h, id)
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), 4*n.opts.Timeout)
	defer cancel()
	sent, err := n.sentBefore(ctx)
	if err != nil {
		return err
	}
	n.sent = sent
	for _, h := range n.rt.Entities() {
		id, ok := n.ids[h]
		if !ok {
			id = n.newID()
		}
		n.own(h, id)
		e, err := n.owner.Get(ctx, id.ID)
		switch {
		case errors.Is(err, jetstream.ErrKeyNotFound):
			if _, err := n.owner.Create(ctx, id.ID, ownerValue(n.opts.Zone, id.Count)); err != nil {
				return fmt.Errorf("owner of %s: %w", id.ID, err)
			}
		case err != nil:
			return fmt.Errorf("owner of %s: %w", id.ID, err)
		default:
			zone, count, err := parseOwner(e.Value())
			if err != nil {
				return fmt.Errorf("owner of %s: %w", id.ID, err)
			}
			if zone != n.opts.Zone || count > id.Count || sent[id.ID] > id.Count {
				// It moved on, or died, after this zone's checkpoint.
				n.disown(h)
				if err := n.rt.Evict(h); err != nil {
					return err
				}
			}
		}
	}
	return n.listen()
}

// listen subscribes to the zone's handoffs (from the stream sequence
// after its checkpoint's), the world's broadcasts and blackboard writes,
// and the owner records' changes.
func (n *Net) listen() error {
	ctx, stop := context.WithCancel(context.Background())
	n.stop = stop
	if err := n.consume(); err != nil {
		return err
	}
	if err := subscribeJSON(n, "broadcast", func(c netCast) { n.casts = append(n.casts, c) }); err != nil {
		return err
	}
	if err := subscribeJSON(n, "blackboard", func(w netWrite) { n.writes = append(n.writes, w) }); err != nil {
		return err
	}
	if err := n.watchOwners(ctx); err != nil {
		return err
	}
	return n.nc.Flush()
}

// subscribeJSON subscribes n to its subject kind (see subject), decodes
// every message as a T and keeps it with keep, under n's lock, for the
// driving goroutine; a message that is not a T is logged and skipped.
func subscribeJSON[T any](n *Net, kind string, keep func(T)) error {
	sub, err := n.nc.Subscribe(n.opts.subject(kind), func(m *natsio.Msg) {
		var v T
		if err := json.Unmarshal(m.Data, &v); err != nil {
			fmt.Fprintf(n.opts.Log, "zone %d: a %s message that is not one, skipped: %v\n", n.opts.Zone, kind, err)
			return
		}
		n.mu.Lock()
		keep(v)
		n.mu.Unlock()
		n.signal()
	})
	if err != nil {
		return err
	}
	n.subs = append(n.subs, sub)
	return nil
}

// watchOwners follows the changes of the owner records, until ctx ends.
func (n *Net) watchOwners(ctx context.Context) error {
	watch, err := n.owner.WatchAll(ctx, jetstream.UpdatesOnly())
	if err != nil {
		return fmt.Errorf("watch the owner records: %w", err)
	}
	go func() {
		for e := range watch.Updates() {
			if e == nil {
				continue
			}
			c := ownerChange{id: e.Key(), deleted: e.Operation() != jetstream.KeyValuePut}
			if !c.deleted {
				var err error
				if c.zone, _, err = parseOwner(e.Value()); err != nil {
					// Read as zone 0, it would end the transit of an
					// entity on its way there that zone 0 never took.
					fmt.Fprintf(n.opts.Log, "zone %d: owner record of %s ignored: %v\n", n.opts.Zone, c.id, err)
					continue
				}
				c.deleted = c.zone == dead
			}
			n.mu.Lock()
			n.owners = append(n.owners, c)
			n.mu.Unlock()
			n.signal()
		}
	}()
	return nil
}

func (n *Net) newID() netID {
	n.made++
	return netID{ID: "z" + strconv.Itoa(n.opts.Zone) + "-" + strconv.FormatUint(n.made, 10)}
}

// An owner record is "ZONE COUNT" while its entity lives and "dead
// COUNT" once it died (a tombstone, never deleted: a zone restarted from
// a checkpoint that still holds the entity, or a handoff of it replayed,
// must find it dead, not unknown). parseOwner reads a tombstone as zone
// dead.
const dead = -1

func ownerValue(zone int, count uint64) []byte {
	if zone == dead {
		return []byte("dead " + strconv.FormatUint(count, 10))
	}
	return []byte(strconv.Itoa(zone) + " " + strconv.FormatUint(count, 10))
}

func parseOwner(b []byte) (zone int, count uint64, err error) {
	z, c, ok := strings.Cut(string(b), " ")
	if ok {
		if z == "dead" {
			zone = dead
		} else if zone, err = strconv.Atoi(z); err == nil && zone < 0 {
			err = errors.New("negative zone")
		}
		if err == nil {
			count, err = strconv.ParseUint(c, 10, 64)
		}
	}
	if !ok || err != nil {
		return 0, 0, fmt.Errorf("bad owner record %q", b)
	}
	return zone, count, nil
}

// elsewhere answers for the handles of entities that left the zone.
func (n *Net) elsewhere(h runtime.Handle) (int, bool) {
	id, ok := n.moved.Get(h)
	if !ok {
		return 0, false
	}
	z, ok := n.where[id]
	return z, ok
}

// record keeps the frame's blackboard writes for the other zones.
func (n *Net) record(key string, v any) {
	if n.applying {
		return
	}
	c, _ := runtime.Plain(v)
	w := netWrite{Zone: n.opts.Zone, Key: key, Value: runtime.PlainJSON{Value: c}}
	if i, ok := n.written[key]; ok {
		n.outWrites[i] = w
		return
	}
	n.written[key] = len(n.outWrites)
	n.outWrites = append(n.outWrites, w)
}

// Step runs one frame of the zone: what NATS delivered since the last
// frame is taken first (handoffs imported, owner changes noted,
// blackboard writes applied, broadcasts queued for this frame), then the
// frame runs, then the entities that left the strip are handed off, the
// frame's broadcasts and blackboard writes published, and every
// NetOptions.Checkpoint frames a checkpoint saved. While NATS cannot be
// reached the zone runs its own entities and holds its outgoing
// handoffs. Step fails only when the runtime refuses to step or an
// entity leaving cannot be exported; a message that is not one, a handoff
// that cannot be taken (its entity stays with its sender) and an owner
// record that is not one are logged and skipped.
func (n *Net) Step(dt float64) error {
	if err := n.take(); err != nil {
		return err
	}
	if err := n.rt.Step(dt); err != nil {
		return err
	}
	if err := n.leave(); err != nil {
		return err
	}
	n.publish()
	n.frames++
	if n.frames%checkTransitEvery == 0 {
		n.checkTransit()
	}
	if n.frames%n.opts.Checkpoint == 0 {
		n.save()
	}
	return nil
}

// signal notes that NATS delivered something (Delivered).
func (n *Net) signal() {
	select {
	case n.note <- struct{}{}:
	default:
	}
}

// Delivered returns a channel that receives a value whenever NATS
// delivered something for the zone since it was last read (a handoff, a
// broadcast, a blackboard write, an owner record's change); Take applies
// it. For programs that wait for the world instead of stepping it.
func (n *Net) Delivered() <-chan struct{} { return n.note }

// Take applies, between frames, what NATS delivered so far, as Step does
// first: handoffs imported, owner changes noted, blackboard writes
// applied, broadcasts queued for the next frame.
func (n *Net) Take() error { return n.take() }

// take applies what NATS delivered, between frames.
func (n *Net) take() error {
	n.mu.Lock()
	inbox, casts, writes, owners, rejoin := n.inbox, n.casts, n.writes, n.owners, n.rejoined
	n.inbox, n.casts, n.writes, n.owners, n.rejoined = nil, nil, nil, nil, false
	n.mu.Unlock()
	if rejoin {
		n.rejoin()
	}
	for _, c := range owners {
		if h, ok := n.transit[c.id]; ok && (c.deleted || c.zone == h.To) {
			delete(n.transit, c.id)
		}
		if _, ok := n.where[c.id]; ok {
			if c.deleted {
				n.forget(c.id)
			} else {
				n.where[c.id] = c.zone
			}
		}
	}
	if err := n.arriveAll(append(n.waiting, inbox...)); err != nil {
		return err
	}
	// The checkpoint's sequence is the last one below every handoff that
	// waits: a restart reads those again.
	if len(n.waiting) > 0 {
		if md, err := n.waiting[0].Metadata(); err == nil {
			n.seq = md.Sequence.Stream - 1
		}
	}
	n.applying = true
	bb := n.rt.Blackboard()
	for _, w := range writes {
		at := writeStamp{w.Time, w.Zone}
		if last, ok := n.lastSeen[w.Key]; ok && (at.time < last.time || at.time == last.time && at.zone < last.zone) {
			continue
		}
		n.lastSeen[w.Key] = at
		if w.Zone != n.opts.Zone {
			v, _ := runtime.Plain(w.Value.Value)
			bb.SetPlain(w.Key, v)
		}
	}
	n.applying = false
	for _, c := range casts {
		n.host.Broadcast(c.Event, c.Data.Value)
	}
	return nil
}

// publish sends the frame's broadcasts and blackboard writes.
func (n *Net) publish() {
	t := n.rt.Time()
	for _, w := range n.outWrites {
		w.Time = t
		n.lastSeen[w.Key] = writeStamp{t, n.opts.Zone}
		if data, err := json.Marshal(w); err == nil {
			_ = n.nc.Publish(n.opts.subject("blackboard"), data)
		}
	}
	for _, c := range n.outCasts {
		if data, err := json.Marshal(c); err == nil {
			_ = n.nc.Publish(n.opts.subject("broadcast"), data)
		}
	}
	n.outWrites, n.outCasts = n.outWrites[:0], n.outCasts[:0]
	clear(n.written)
}

// save stores a checkpoint of the zone: its snapshot, its entities' world
// ids and counts, the stream sequence of the last handoff taken and the
// handoffs still held; then the zone's handoffs up to that sequence are
// purged from the stream. A checkpoint that cannot be stored (NATS gone)
// is tried again next frame.
func (n *Net) save() {
	if !n.isConnected() {
		n.frames--
		return
	}
	snap, err := n.host.Snapshot()
	if err != nil {
		fmt.Fprintf(n.opts.Log, "zone %d: checkpoint: %v\n", n.opts.Zone, err)
		return
	}
	cp := checkpoint{Snapshot: snap, IDs: make(map[string]netID, len(n.ids)), Made: n.made, Seq: n.seq, Held: n.held, Graves: n.graves}
	for h, id := range n.ids {
		cp.IDs[runtime.FormatHandleID(h)] = id
	}
	var buf bytes.Buffer
	zw := gzip.NewWriter(&buf)
	err = json.NewEncoder(zw).Encode(&cp)
	if err == nil {
		err = zw.Close()
	}
	if err != nil {
		fmt.Fprintf(n.opts.Log, "zone %d: checkpoint: %v\n", n.opts.Zone, err)
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), n.opts.Timeout)
	defer cancel()
	if _, err := n.saves.Put(ctx, "zone-"+strconv.Itoa(n.opts.Zone), buf.Bytes()); err != nil {
		// Tried again every frame, said once.
		if !n.saveSaid {
			hint := ""
			if errors.Is(err, natsio.ErrMaxPayload) {
				hint = fmt.Sprintf(" (%d bytes; raise the server's max_payload)", buf.Len())
			}
			fmt.Fprintf(n.opts.Log, "zone %d: checkpoint not saved: %v%s; trying again every frame\n", n.opts.Zone, err, hint)
			n.saveSaid = true
		}
		n.frames--
		return
	}
	if n.saveSaid {
		fmt.Fprintf(n.opts.Log, "zone %d: checkpoint saved\n", n.opts.Zone)
		n.saveSaid = false
	}
	if n.seq > 0 {
		if s, err := n.js.Stream(ctx, n.opts.stream()); err == nil {
			_ = s.Purge(ctx, jetstream.WithPurgeSubject(n.opts.handoffs(n.opts.Zone)), jetstream.WithPurgeSequence(n.seq+1))
		}
	}
}

// Entities returns how many entities the zone holds now.
func (n *Net) Entities() int { return n.rt.Stats().Entities }

// Transit returns the world ids of the entities handed off and not yet
// confirmed by their receivers' owner records, and of those held, sorted.
func (n *Net) Transit() []string {
	var ids []string
	for id := range n.transit {
		ids = append(ids, id)
	}
	for _, h := range n.held {
		ids = append(ids, h.ID)
	}
	slices.Sort(ids)
	return ids
}

// Close stops the zone (it ends like run): a last checkpoint is
// saved, so that a restart resumes where it stopped, every entity the
// zone owns gets its onDestroy (entities frozen in transit get none), the
// claim is released and the connection closed.
func (n *Net) Close() error {
	if n.closed {
		return nil
	}
	if n.host != nil {
		n.save()
	}
	n.mu.Lock()
	n.closed = true
	n.mu.Unlock()
	if n.cons != nil {
		n.cons.Stop()
	}
	if n.stop != nil {
		n.stop()
	}
	if n.watchStop != nil {
		n.watchStop()
	}
	for _, s := range n.subs {
		_ = s.Unsubscribe()
	}
	var err error
	if n.host != nil {
		err = n.host.Close()
	}
	if n.claim != nil {
		_ = n.claim.Unsubscribe()
	}
	n.nc.Close()
	return err
}
