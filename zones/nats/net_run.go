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
	"time"

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
// a higher handoff count, or is its tombstone, is dropped (it moved on or
// died after the checkpoint), and so is one this zone handed off in a
// message still in the stream (read in pages, within
// NetOptions.StartTimeout); every other one is recorded as the zone's,
// its record stamped with this claim's epoch, and a checkpoint is saved.
// Then the handoffs addressed to the zone and not acknowledged are taken,
// in order, between frames, a page a frame, and the world's broadcasts
// and blackboard writes flow in. A Start that fails leaves the entities
// alone: Close runs none of their onDestroy.
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
		for i := range n.held {
			// Sent under this claim now: receivers refuse the handoffs
			// of an older one stored after this one began.
			n.held[i].Epoch = n.epoch
		}
		for s, id := range cp.IDs {
			h, err := runtime.ParseHandleID(s)
			if err != nil {
				return fmt.Errorf("checkpoint: %w", err)
			}
			n.own(h, id)
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), n.opts.StartTimeout)
	defer cancel()
	sent, err := n.sentBefore(ctx)
	if errors.Is(err, context.DeadlineExceeded) {
		return fmt.Errorf("%w: the start timeout of %v ended; a longer start timeout reads more", err, n.opts.StartTimeout)
	}
	if err != nil {
		return err
	}
	n.sent = sent
	hs := n.rt.Entities()
	for _, h := range hs {
		id, ok := n.ids[h]
		if !ok {
			id = n.newID()
		}
		n.own(h, id)
	}
	gone := make([]bool, len(hs))
	errs := make([]error, len(hs))
	n.together(len(hs), func(ctx context.Context, i int) {
		gone[i], errs[i] = n.claimEntity(ctx, n.ids[hs[i]])
	})
	for i, h := range hs {
		if errs[i] != nil {
			return errs[i]
		}
		if gone[i] {
			n.disown(h)
			if err := n.rt.Evict(h); err != nil {
				return err
			}
		}
	}
	if err := n.listen(); err != nil {
		return err
	}
	// Saved at once, so that the checkpoint a process taken over would
	// write fails its compare-and-set.
	n.save()
	n.started = true
	return nil
}

// listen subscribes to the zone's handoffs (its durable consumer), the
// world's broadcasts and blackboard writes, and the changes of the owner
// and claim records.
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
	if err := n.watchClaims(ctx); err != nil {
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

// newID returns a world id for a new entity of the zone: zZONE-N under
// the zone's first claim, zZONE-EPOCH-N under later ones, so that a zone
// restarted from a checkpoint older than the ids it made since does not
// make them again.
func (n *Net) newID() netID {
	n.made++
	z, m := "z"+strconv.Itoa(n.opts.Zone)+"-", strconv.FormatUint(n.made, 10)
	if n.epoch > 1 {
		return netID{ID: z + strconv.FormatUint(n.epoch, 10) + "-" + m}
	}
	return netID{ID: z + m}
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
	if err := n.checkFence(); err != nil {
		return err
	}
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
		// The consumer made again delivers from the zone's position:
		// what the old one delivered comes again.
		inbox = nil
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
	inbox, gap := n.unbroken(inbox)
	// A page a frame: a backlog is taken over frames, never all at once.
	msgs := append(n.waiting, inbox...)
	later := msgs[min(len(msgs), pageSize):]
	if err := n.arriveAll(msgs[:len(msgs)-len(later)]); err != nil {
		return err
	}
	n.waiting = append(n.waiting, later...)
	// The zone's handoffs are purged up to the last one below every
	// handoff that waits.
	if len(n.waiting) > 0 {
		if md, err := n.waiting[0].Metadata(); err == nil {
			n.seq = md.Sequence.Stream - 1
		}
	}
	if gap {
		if !n.gapSaid {
			fmt.Fprintf(n.opts.Log, "zone %d: a handoff delivery went missing; reading the handoffs again from stream sequence %d\n", n.opts.Zone, n.seq+1)
			n.gapSaid = true
		}
		if err := n.consume(); err != nil {
			n.mu.Lock()
			n.rejoined = true
			n.mu.Unlock()
		}
	}
	n.applying = true
	bb := n.rt.Blackboard()
	for _, w := range writes {
		if w.Zone < 0 || w.Zone >= n.opts.Layout.Zones() {
			fmt.Fprintf(n.opts.Log, "zone %d: a blackboard message that is not one, skipped: from zone %d\n", n.opts.Zone, w.Zone)
			continue
		}
		at := writeStamp{min(w.Frame, n.rt.Frame()+maxAhead), w.Zone}
		if last, ok := n.lastSeen[w.Key]; ok && (at.frame < last.frame || at.frame == last.frame && at.zone < last.zone) {
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
	f := n.rt.Frame()
	for _, w := range n.outWrites {
		w.Frame = f
		n.lastSeen[w.Key] = writeStamp{f, n.opts.Zone}
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

// save stores a checkpoint of the zone by compare-and-set: its snapshot,
// its entities' world ids and counts, the stream sequence of the last
// handoff dealt with, the handoffs still held and the tombstones not yet
// written; then the handoffs dealt with are acknowledged and the zone's
// handoffs purged up to that sequence. A checkpoint that cannot be stored
// (NATS gone) is tried again next frame; one whose record another process
// wrote since fences the zone. save reports whether NATS, connected,
// did not take the checkpoint, so that it is worth trying again soon.
func (n *Net) save() (retry bool) {
	if !n.isConnected() {
		n.frames--
		return false
	}
	snap, err := n.host.Snapshot()
	if err != nil {
		fmt.Fprintf(n.opts.Log, "zone %d: checkpoint: %v\n", n.opts.Zone, err)
		return false
	}
	cp := checkpoint{Snapshot: snap, IDs: make(map[string]netID, len(n.ids)), Made: n.made, Seq: n.seq, Held: n.held, Graves: n.graves, Epoch: n.epoch}
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
		return false
	}
	ctx, cancel := context.WithTimeout(context.Background(), n.opts.Timeout)
	defer cancel()
	rev, err := n.writeCheckpoint(ctx, buf.Bytes())
	if isConflict(err) {
		// Another process claimed the zone and saved since.
		n.fence("its checkpoint changed")
		return false
	}
	if err != nil {
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
		return !errors.Is(err, natsio.ErrMaxPayload)
	}
	n.cpRev = rev
	n.ackSaved()
	if n.saveSaid {
		fmt.Fprintf(n.opts.Log, "zone %d: checkpoint saved\n", n.opts.Zone)
		n.saveSaid = false
	}
	if n.seq > 0 {
		if s, err := n.js.Stream(ctx, n.opts.stream()); err == nil {
			_ = s.Purge(ctx, jetstream.WithPurgeSubject(n.opts.handoffsTo(n.opts.Zone)), jetstream.WithPurgeSequence(n.seq+1))
		}
	}
	return false
}

// writeCheckpoint writes the zone's checkpoint record by compare-and-set
// on the revision this process last wrote or read, and returns the new
// one.
func (n *Net) writeCheckpoint(ctx context.Context, data []byte) (uint64, error) {
	key := "zone-" + strconv.Itoa(n.opts.Zone)
	if n.cpRev == 0 {
		return n.saves.Create(ctx, key, data)
	}
	return n.saves.Update(ctx, key, data, n.cpRev)
}

// isConflict tells whether err is a compare-and-set that failed: the
// record is not at the revision the write expected.
func isConflict(err error) bool {
	var api *jetstream.APIError
	return errors.Is(err, jetstream.ErrKeyExists) || errors.As(err, &api) && api.ErrorCode == jetstream.JSErrCodeStreamWrongLastSequence
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

// closeSaveWait is how long Close tries to save the zone's last
// checkpoint while NATS does not take it.
const closeSaveWait = 10 * time.Second

// Close stops the zone (it ends like run): a last checkpoint is
// saved, so that a restart resumes where it stopped, every entity the
// zone owns gets its onDestroy (entities frozen in transit get none), the
// claim is released and the connection closed. A zone taken over by
// another process (ErrFenced) saves nothing and runs no onDestroy: its
// entities are the new owner's; nor does one whose Start failed.
func (n *Net) Close() error {
	if n.closed {
		return nil
	}
	// A zone taken over, or one that did not start (its entities may
	// not all have loaded), ends none of its entities.
	fenced := n.isFenced() || !n.started
	if n.host != nil && !fenced {
		// A cluster electing a leader after losing a server may not take
		// it at once: the last checkpoint is tried for a while, so that a
		// clean stop leaves none older than the zone's last frame (which a
		// restart would correct, but from further back).
		for deadline := time.Now().Add(closeSaveWait); n.save() && !n.isFenced() && time.Now().Before(deadline); {
			time.Sleep(100 * time.Millisecond)
		}
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
		if fenced {
			// The zone's entities are the new owner's: they end there.
			for _, h := range n.rt.Entities() {
				_ = n.rt.Evict(h)
			}
		}
		err = n.host.Close()
	}
	if n.claim != nil {
		_ = n.claim.Unsubscribe()
	}
	n.nc.Close()
	return err
}
