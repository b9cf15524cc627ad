package nats

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"time"

	natsio "github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/luahost/luahost/runtime"
	"github.com/luahost/luahost/snapshot"
)

// pageSize is how many handoff messages a start reads at once, and a
// frame takes at most.
const pageSize = 1000

// sentBefore returns, for every entity that this zone handed off in a
// message still in the stream, the highest handoff count it sent: a zone
// that stopped after sending an entity and before its receiver took it
// (so the owner record still names the sender) must not keep its copy.
// It reads the subjects of this zone's handoffs to the other zones a
// page at a time, saying how far it got while that takes long, within
// ctx (NetOptions.StartTimeout).
func (n *Net) sentBefore(ctx context.Context) (map[string]uint64, error) {
	sent := make(map[string]uint64)
	stream, err := n.js.Stream(ctx, n.opts.stream())
	if err != nil {
		return nil, fmt.Errorf("handoff stream: %w", err)
	}
	began, said := time.Now(), time.Now()
	read := 0
	for z := range n.opts.Layout.Zones() {
		if z == n.opts.Zone {
			continue
		}
		// A literal subject: its count is under its own name.
		subj := n.opts.handoffSubject(z, n.opts.Zone)
		info, err := stream.Info(ctx, jetstream.WithSubjectFilter(subj))
		if err != nil {
			return nil, fmt.Errorf("handoff stream: %w", err)
		}
		if info.State.Subjects[subj] == 0 {
			continue
		}
		cons, err := n.js.OrderedConsumer(ctx, n.opts.stream(), jetstream.OrderedConsumerConfig{FilterSubjects: []string{subj}})
		if err != nil {
			return nil, fmt.Errorf("handoff stream: %w", err)
		}
		msgs, err := cons.Messages(jetstream.PullMaxMessages(pageSize))
		if err != nil {
			return nil, fmt.Errorf("handoff stream: %w", err)
		}
		err = n.readSent(ctx, msgs, sent, &read, &said)
		msgs.Stop()
		if err != nil {
			return nil, fmt.Errorf("read the handoff stream: %w (%d messages read)", err, read)
		}
	}
	if read > pageSize {
		fmt.Fprintf(n.opts.Log, "zone %d: read the handoff stream: %d messages in %v\n", n.opts.Zone, read, time.Since(began).Round(time.Millisecond))
	}
	return sent, nil
}

// readSent reads msgs up to the last one in the stream, noting in sent the
// handoffs this zone sent, counting them in read, and saying how many it
// read every second.
func (n *Net) readSent(ctx context.Context, msgs jetstream.MessagesContext, sent map[string]uint64, read *int, said *time.Time) error {
	stop := context.AfterFunc(ctx, msgs.Stop)
	defer stop()
	for {
		m, err := msgs.Next()
		if err != nil {
			if ctx.Err() != nil {
				return ctx.Err()
			}
			return err
		}
		*read++
		var h handoff
		if json.Unmarshal(m.Data(), &h) == nil && h.From == n.opts.Zone && n.before(m) {
			sent[h.ID] = max(sent[h.ID], h.Count)
		}
		if time.Since(*said) > time.Second {
			fmt.Fprintf(n.opts.Log, "zone %d: reading the handoff stream: %d messages so far\n", n.opts.Zone, *read)
			*said = time.Now()
		}
		if md, err := m.Metadata(); err != nil || md.NumPending == 0 {
			return nil
		}
	}
}

// rejoin runs between frames after NATS came back: the handoff consumer
// and the owner records' watch start again (they do not always outlive a
// server's restart), and the records of the entities in transit, whose
// changes the watch may have missed, are read once.
func (n *Net) rejoin() {
	if n.watchStop != nil {
		n.watchStop()
	}
	ctx, stop := context.WithCancel(context.Background())
	n.watchStop = stop
	err := n.consume()
	if err == nil {
		err = n.watchOwners(ctx)
	}
	if err != nil {
		// Tried again at the next check of the transit.
		n.mu.Lock()
		n.rejoined = true
		n.mu.Unlock()
	}
	n.checkTransit()
}

// checkTransitEvery is how many frames pass between two reads of the
// owner records of the entities in transit, in case the watch missed a
// change.
const checkTransitEvery = 30

// checkTransit reads the owner records of the entities in transit and
// drops those their receivers took.
func (n *Net) checkTransit() {
	if len(n.transit) == 0 || !n.isConnected() {
		return
	}
	get, cancel := context.WithTimeout(context.Background(), n.opts.Timeout)
	defer cancel()
	for id, h := range n.transit {
		e, err := n.owner.Get(get, id)
		if err != nil {
			continue
		}
		if o, err := parseOwner(e.Value()); err == nil && (o.zone == h.To && o.count >= h.Count || o.zone == dead) {
			delete(n.transit, id)
		}
	}
}

// ackWait is how long NATS waits for a handoff message's
// acknowledgement before it delivers it again: a zone acknowledges the
// handoffs it dealt with once a checkpoint holds the result.
const ackWait = 5 * time.Minute

// consume takes the zone's handoffs from its durable consumer, made
// again from the one after the zone's stream position (its checkpoint's,
// or the last handoff it dealt with), so that what a stopped process (or
// the connection before NATS came back) was delivered and did not deal
// with comes again at once. The consumer's acknowledgement floor is no
// guide: NATS moves it past messages delivered to a process that went
// away once nothing else is pending, and a zone started from it lost
// those handoffs. A handoff delivered twice is taken once: arrive skips
// what the zone holds or what moved on.
func (n *Net) consume() error {
	if n.cons != nil {
		n.cons.Stop()
	}
	ctx, cancel := context.WithTimeout(context.Background(), n.opts.Timeout)
	defer cancel()
	stream, err := n.js.Stream(ctx, n.opts.stream())
	if err != nil {
		return fmt.Errorf("handoff consumer: %w", err)
	}
	name := "zone-" + strconv.Itoa(n.opts.Zone)
	if err := stream.DeleteConsumer(ctx, name); err != nil && !errors.Is(err, jetstream.ErrConsumerNotFound) {
		return fmt.Errorf("handoff consumer: %w", err)
	}
	from := n.seq
	cfg := jetstream.ConsumerConfig{Durable: name, FilterSubject: n.opts.handoffsTo(n.opts.Zone),
		AckPolicy: jetstream.AckExplicitPolicy, AckWait: ackWait, MaxAckPending: -1}
	if from > 0 {
		cfg.DeliverPolicy, cfg.OptStartSeq = jetstream.DeliverByStartSequencePolicy, from+1
	}
	cons, err := stream.CreateConsumer(ctx, cfg)
	if err != nil {
		return fmt.Errorf("handoff consumer: %w", err)
	}
	n.mu.Lock()
	n.consumer++
	gen := n.consumer
	n.inbox = nil
	n.mu.Unlock()
	n.delivered = 0
	if n.cons, err = cons.Consume(func(m jetstream.Msg) {
		n.mu.Lock()
		if gen == n.consumer {
			n.inbox = append(n.inbox, m)
		}
		n.mu.Unlock()
		n.signal()
	}); err != nil {
		return fmt.Errorf("handoff consumer: %w", err)
	}
	return nil
}

// unbroken returns the handoffs of msgs up to the first one whose
// delivery sequence skips one: a delivery that never reached the zone (a
// consumer's leader that failed on a NATS cluster, a pull lost with a
// connection) would otherwise lie below the stream position the zone
// moves past, and its next checkpoint would purge it. gap tells that one
// was skipped; then the consumer is made again after what the zone dealt
// with (consume), and everything after it comes again.
func (n *Net) unbroken(msgs []jetstream.Msg) (in []jetstream.Msg, gap bool) {
	for i, m := range msgs {
		md, err := m.Metadata()
		if err != nil {
			continue
		}
		if md.Sequence.Consumer != n.delivered+1 {
			return msgs[:i], true
		}
		n.delivered = md.Sequence.Consumer
	}
	return msgs, false
}

// ackSaved acknowledges the handoff messages dealt with before the
// checkpoint just saved: NATS delivers them no more.
func (n *Net) ackSaved() {
	for _, m := range n.done {
		_ = m.Ack()
	}
	n.done = n.done[:0]
}

// forget drops what the zone remembers of an entity that died.
func (n *Net) forget(id string) {
	// Its old handles now answer as stale ones.
	delete(n.where, id)
}

// maxAhead is how many frames ahead of the receiver a handoff's sender
// may be for the handoff to wait until the receiver catches up.
const maxAhead = 2

// arrival is one handoff message taken from the stream.
type arrival struct {
	m jetstream.Msg
	h handoff
}

// arriveAll takes the handoff messages, in stream order: the owner
// records they need are read together first, then each handoff is taken
// or left waiting (arrive), then the owner records of the entities taken
// are written together. The messages left waiting are kept, and the
// sequence the zone's handoffs are purged to stays below the first of them;
// the others are acknowledged after the next checkpoint.
func (n *Net) arriveAll(msgs []jetstream.Msg) error {
	n.waiting = nil
	if len(msgs) == 0 {
		return nil
	}
	if !n.isConnected() {
		// The owner records cannot be read: everything waits.
		n.waiting = msgs
		return nil
	}
	var as []arrival
	for _, m := range msgs {
		var h handoff
		err := json.Unmarshal(m.Data(), &h)
		if err == nil {
			err = n.checkHandoff(m.Subject(), h)
		}
		if err != nil {
			// Skipped for good: read again, it would block the handoffs
			// behind it.
			fmt.Fprintf(n.opts.Log, "zone %d: a handoff message that is not one, skipped: %v\n", n.opts.Zone, err)
			_ = m.Term()
			continue
		}
		as = append(as, arrival{m, h})
	}
	reads := n.readOwners(as)
	var writes []debt
	for i, a := range as {
		wait, write, err := n.arrive(a, reads[a.h.ID])
		if err != nil {
			return err
		}
		if write != nil {
			writes = append(writes, *write)
		}
		if wait && n.ownersSaid {
			// The owner records cannot be read now: the rest waits too.
			for _, b := range as[i:] {
				n.waiting = append(n.waiting, b.m)
			}
			break
		}
		if wait {
			n.waiting = append(n.waiting, a.m)
		} else {
			n.done = append(n.done, a.m)
		}
	}
	n.pay(writes)
	return nil
}

// checkHandoff tells whether h, stored on subject, can be a handoff to
// this zone: an entity id that can name an owner record, a count from 1,
// another zone of the world as its sender, this zone as its receiver,
// and the subject of its sender's handoffs to this zone (the one its
// sender's NATS identity may be the only one allowed to publish on).
func (n *Net) checkHandoff(subject string, h handoff) error {
	switch {
	case !validName(h.ID):
		return fmt.Errorf("entity id %q: want letters, digits, '-' and '_' only", h.ID)
	case h.Count == 0:
		return fmt.Errorf("handoff of %s: count 0 (handoffs count from 1)", h.ID)
	case h.To != n.opts.Zone:
		return fmt.Errorf("handoff of %s: addressed to zone %d", h.ID, h.To)
	case h.From < 0 || h.From >= n.opts.Layout.Zones() || h.From == n.opts.Zone:
		return fmt.Errorf("handoff of %s: from zone %d", h.ID, h.From)
	case len(h.Snap.Instances) == 0 && h.Snap.ID == "":
		return fmt.Errorf("handoff of %s: no entity", h.ID)
	}
	switch from, ok := n.opts.sender(subject, n.opts.Zone); {
	case !ok:
		return fmt.Errorf("handoff of %s: from zone %d, published on %s, which names no sending zone", h.ID, h.From, subject)
	case from != h.From:
		return fmt.Errorf("handoff of %s: from zone %d, published as zone %d's on %s", h.ID, h.From, from, subject)
	}
	return nil
}

// arrive takes one handoff unless it does not match its entity's owner
// record (read) or cannot be taken (a script this zone cannot load): that
// is logged when it is not a plain replay, and the entity stays where the
// record says. A replay is a message read again after a restart whose
// checkpoint holds the entity, or one of an entity that moved on or died
// since. It returns the owner record this zone then owes, for arriveAll
// to write. A handoff from a frame this zone has not run yet waits for it
// (wait is true), so that no entity is updated twice for one frame
// number; zones run on their own clocks, so only while the sender is at
// most maxAhead frames ahead: a zone far behind (started later) takes
// handoffs at once. So does one whose record lags more than one handoff
// behind it.
func (n *Net) arrive(a arrival, read ownerRead) (wait bool, write *debt, err error) {
	h := a.h
	if h.Frame > n.rt.Frame() && h.Frame-n.rt.Frame() <= maxAhead {
		return true, nil, nil
	}
	if md, err := a.m.Metadata(); err == nil {
		n.seq = md.Sequence.Stream
	}
	if _, ok := n.byID[h.ID]; ok || n.sent[h.ID] > h.Count {
		// Held already, or handed on again before a restart.
		return false, nil, nil
	}
	if n.staleSender(h, a.m) {
		fmt.Fprintf(n.opts.Log, "zone %d: handoff of %s from zone %d not taken: sent by a process taken over (epoch %d)\n", n.opts.Zone, h.ID, h.From, h.Epoch)
		return false, nil, nil
	}
	// Without a record (its zone could not write it), the entity is the
	// sender's.
	o, rev := owner{zone: h.From, count: h.Count - 1}, uint64(0)
	switch {
	case read.err == nil:
		rev = read.e.Revision()
		var perr error
		if o, perr = parseOwner(read.e.Value()); perr != nil {
			// Junk: the handoff is the better word, and the record is
			// written again.
			fmt.Fprintf(n.opts.Log, "zone %d: handoff of %s from zone %d taken over a junk owner record: %v\n", n.opts.Zone, h.ID, h.From, perr)
			o = owner{zone: h.From, count: h.Count - 1}
		}
	case !errors.Is(read.err, jetstream.ErrKeyNotFound):
		// NATS is not ready (a server that just restarted): the handoff
		// waits for the next frame.
		if !n.ownersSaid {
			fmt.Fprintf(n.opts.Log, "zone %d: cannot read the owner records (%v); incoming handoffs wait\n", n.opts.Zone, read.err)
			n.ownersSaid = true
		}
		return true, nil, nil
	}
	n.ownersSaid = false
	// The record names this zone at the handoff's count (its sender wrote
	// it, or this zone took it before a restart), or the sender at the
	// count before, under the sender's claim; a record further behind
	// waits for its writer (a zone that could not write it yet tries
	// again every frame); anything else is stale or forged: the entity
	// moved on or died, or the handoff is not its sender's.
	ours := o.zone == n.opts.Zone && o.count == h.Count
	switch {
	case ours:
	case o.zone == dead || o.count >= h.Count:
		return false, nil, nil
	case o.count+1 < h.Count:
		if !n.lagSaid[h.ID] {
			n.lagSaid[h.ID] = true
			fmt.Fprintf(n.opts.Log, "zone %d: handoff of %s (count %d) waits: its owner record is at count %d\n", n.opts.Zone, h.ID, h.Count, o.count)
		}
		return true, nil, nil
	case o.zone != h.From || h.Epoch < o.epoch:
		fmt.Fprintf(n.opts.Log, "zone %d: handoff of %s from zone %d not taken: its owner record says zone %d (epoch %d)\n", n.opts.Zone, h.ID, h.From, o.zone, o.epoch)
		return false, nil, nil
	}
	delete(n.lagSaid, h.ID)
	if ours && o.epoch > n.epoch {
		n.fence("an owner record of a newer claim")
		return false, nil, nil
	}
	hs, err := n.host.ImportAll([]snapshot.Entity{h.Snap})
	if err != nil {
		// The owner record still names the sender, which keeps its copy.
		fmt.Fprintf(n.opts.Log, "zone %d: handoff of %s from zone %d not taken, left with its sender: %v\n", n.opts.Zone, h.ID, h.From, err)
		return false, nil, nil
	}
	n.own(hs[0], netID{ID: h.ID, Count: h.Count})
	if ours && o.epoch == n.epoch {
		return false, nil, nil
	}
	return false, &debt{id: h.ID, count: h.Count, from: h.From, rev: rev}, nil
}

// leave notes the entities that died and hands off the Active ones whose
// committed position is outside the strip.
func (n *Net) leave() error {
	var leaving [][]runtime.Handle
	for h, id := range n.ids {
		if !n.rt.Alive(h) {
			n.disown(h)
			n.graves = append(n.graves, id)
		}
	}
	for _, h := range n.rt.Entities() {
		if _, ok := n.ids[h]; !ok {
			id := n.newID()
			n.own(h, id)
			n.ownerSet(id)
		}
		if st, _ := n.rt.State(h); st != runtime.StateActive {
			continue
		}
		p, _ := n.rt.Get(h, runtime.Position)
		if d := n.opts.Layout.Zone(p); d != n.opts.Zone {
			if leaving == nil {
				leaving = make([][]runtime.Handle, n.opts.Layout.Zones())
			}
			leaving[d] = append(leaving[d], h)
		}
	}
	for d, hs := range leaving {
		if len(hs) == 0 {
			continue
		}
		snaps, err := n.host.ExportAll(hs)
		if err != nil {
			return fmt.Errorf("hand off %d entities to zone %d: %w", len(hs), d, err)
		}
		for i, h := range hs {
			id := n.ids[h]
			n.disown(h)
			n.moved.Add(h, id.ID)
			n.where[id.ID] = d
			n.held = append(n.held, handoff{To: d, From: n.opts.Zone, Frame: n.rt.Frame(), ID: id.ID, Count: id.Count + 1, Epoch: n.epoch, Snap: snaps[i]})
		}
	}
	n.bury()
	n.payOwed()
	n.send()
	return nil
}

// send publishes the held handoffs on the subjects of this zone's
// handoffs to their zones, each with the message id (world id, new count,
// sender's claim epoch) so that a handoff sent twice by one claim is
// stored once, while the same handoff sent by a newer claim of the zone
// after a process taken over sent its own (which receivers refuse) is
// stored too; they are published together and their acknowledgements
// awaited together (up to NetOptions.Timeout). Those NATS did not store
// stay held for the next frame.
func (n *Net) send() {
	defer n.sayHeld()
	if len(n.held) == 0 || !n.isConnected() {
		return
	}
	futures := make([]jetstream.PubAckFuture, len(n.held))
	for i, h := range n.held {
		data, err := json.Marshal(h)
		if err == nil {
			futures[i], err = n.js.PublishAsync(n.opts.handoffSubject(h.To, h.From), data, jetstream.WithMsgID(h.ID+"-"+strconv.FormatUint(h.Count, 10)+"-"+strconv.FormatUint(h.Epoch, 10)))
		}
		if err != nil && !n.unsendable[h.ID] {
			n.unsendable[h.ID] = true
			hint := ""
			if errors.Is(err, natsio.ErrMaxPayload) {
				hint = fmt.Sprintf(" (%d bytes; raise the server's max_payload)", len(data))
			}
			fmt.Fprintf(n.opts.Log, "zone %d: handoff of %s to zone %d cannot be sent, held: %v%s\n", n.opts.Zone, h.ID, h.To, err, hint)
		}
	}
	ctx, cancel := context.WithTimeout(context.Background(), n.opts.Timeout)
	defer cancel()
	var still, stored []handoff
	for i, h := range n.held {
		ok := false
		if f := futures[i]; f != nil {
			select {
			case <-f.Ok():
				ok = true
			case <-f.Err():
			case <-ctx.Done():
			}
		}
		if ok {
			n.transit[h.ID] = h
			delete(n.unsendable, h.ID)
			stored = append(stored, h)
		} else {
			still = append(still, h)
		}
	}
	n.held = still
	n.handOn(stored)
}

// sayHeld says once that handoffs are held, and once that they all went.
func (n *Net) sayHeld() {
	switch {
	case len(n.held) > 0 && !n.heldSaid:
		fmt.Fprintf(n.opts.Log, "zone %d: holding %d outgoing handoffs until NATS takes them\n", n.opts.Zone, len(n.held))
		n.heldSaid = true
	case len(n.held) == 0 && n.heldSaid:
		fmt.Fprintf(n.opts.Log, "zone %d: the held handoffs are sent\n", n.opts.Zone)
		n.heldSaid = false
	}
}

// own records h as the zone's entity with world id id; disown forgets it.
func (n *Net) own(h runtime.Handle, id netID) {
	n.ids[h] = id
	n.byID[id.ID] = h
}

func (n *Net) disown(h runtime.Handle) {
	delete(n.byID, n.ids[h].ID)
	delete(n.ids, h)
}
