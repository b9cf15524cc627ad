package nats

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"sync"

	"github.com/nats-io/nats.go/jetstream"
)

// owner is an entity's owner record: "ZONE COUNT EPOCH" while it lives,
// the zone that owns it, its handoff count and the claim epoch of that
// zone as its writer knew it (0: not known), and "dead COUNT" once it
// died (a tombstone, never deleted: a zone restarted from a checkpoint
// that still holds the entity, or a handoff of it replayed, must find it
// dead, not unknown). A tombstone reads as zone dead.
type owner struct {
	zone  int
	count uint64
	epoch uint64
}

const dead = -1

func (o owner) value() []byte {
	if o.zone == dead {
		return []byte("dead " + strconv.FormatUint(o.count, 10))
	}
	return []byte(strconv.Itoa(o.zone) + " " + strconv.FormatUint(o.count, 10) + " " + strconv.FormatUint(o.epoch, 10))
}

func parseOwner(b []byte) (owner, error) {
	f := strings.Fields(string(b))
	var o owner
	var err error
	switch {
	case len(f) == 2 && f[0] == "dead":
		o.zone = dead
	case len(f) == 2 || len(f) == 3:
		if o.zone, err = strconv.Atoi(f[0]); err == nil && o.zone < 0 {
			err = errors.New("negative zone")
		}
		if err == nil && len(f) == 3 {
			o.epoch, err = strconv.ParseUint(f[2], 10, 64)
		}
	default:
		err = errors.New("want ZONE COUNT EPOCH")
	}
	if err == nil {
		o.count, err = strconv.ParseUint(f[1], 10, 64)
	}
	if err != nil {
		return owner{}, fmt.Errorf("bad owner record %q", b)
	}
	return o, nil
}

// claimEntity settles the owner record of an entity the zone starts
// with: one that moved on or died after the zone's checkpoint is gone; a
// record that names this zone is stamped with this claim's epoch (so
// that the writes of a process taken over fail); a missing one is made;
// a junk one is said and made again, the checkpoint being the truth.
func (n *Net) claimEntity(ctx context.Context, id netID) (gone bool, err error) {
	mine := owner{zone: n.opts.Zone, count: id.Count, epoch: n.epoch}.value()
	e, err := n.owner.Get(ctx, id.ID)
	switch {
	case errors.Is(err, jetstream.ErrKeyNotFound):
		_, err = n.owner.Create(ctx, id.ID, mine)
	case err == nil:
		o, perr := parseOwner(e.Value())
		switch {
		case perr != nil:
			fmt.Fprintf(n.opts.Log, "zone %d: owner record of %s: %v; written again\n", n.opts.Zone, id.ID, perr)
		case o.zone == dead || o.count > id.Count || o.count == id.Count && o.zone != n.opts.Zone || n.sent[id.ID] > id.Count:
			// A record behind the checkpoint's count is one this zone
			// could not write yet.
			return true, nil
		case o.epoch > n.epoch:
			return false, fmt.Errorf("owner of %s: zone %d of world %s %w", id.ID, n.opts.Zone, n.opts.World, ErrFenced)
		}
		_, err = n.owner.Update(ctx, id.ID, mine, e.Revision())
	}
	if err != nil {
		return false, fmt.Errorf("owner of %s: %w", id.ID, err)
	}
	return false, nil
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
				var o owner
				if o, err = parseOwner(e.Value()); err != nil {
					// Read as zone 0, it would end the transit of an
					// entity on its way there that zone 0 never took.
					fmt.Fprintf(n.opts.Log, "zone %d: owner record of %s ignored: %v\n", n.opts.Zone, c.id, err)
					continue
				}
				c.zone, c.deleted = o.zone, o.zone == dead
			}
			n.mu.Lock()
			n.owners = append(n.owners, c)
			n.mu.Unlock()
			n.signal()
		}
	}()
	return nil
}

// ownerReads bounds the owner records read or written at once.
const ownerReads = 32

// ownerRead is an owner record as read: its entry, or the error.
type ownerRead struct {
	e   jetstream.KeyValueEntry
	err error
}

// readOwners reads the owner records of the handoffs' entities, up to
// ownerReads at once.
func (n *Net) readOwners(as []arrival) map[string]ownerRead {
	var ids []string
	seen := make(map[string]bool, len(as))
	for _, a := range as {
		if !seen[a.h.ID] {
			seen[a.h.ID] = true
			ids = append(ids, a.h.ID)
		}
	}
	got := make([]ownerRead, len(ids))
	n.together(len(ids), func(ctx context.Context, i int) {
		got[i].e, got[i].err = n.owner.Get(ctx, ids[i])
	})
	reads := make(map[string]ownerRead, len(ids))
	for i, id := range ids {
		reads[id] = got[i]
	}
	return reads
}

// together runs do(ctx, i) for i from 0 to count-1, up to ownerReads at
// once, each under its own NetOptions.Timeout, and returns when all are
// done.
func (n *Net) together(count int, do func(ctx context.Context, i int)) {
	var wg sync.WaitGroup
	slots := make(chan struct{}, ownerReads)
	for i := range count {
		slots <- struct{}{}
		wg.Go(func() {
			defer func() { <-slots }()
			ctx, cancel := context.WithTimeout(context.Background(), n.opts.Timeout)
			defer cancel()
			do(ctx, i)
		})
	}
	wg.Wait()
}

// debt is an owner record this zone owes: it took the entity id from zone
// from at handoff count count, and the record does not say so yet. rev is
// the record's revision as read when the handoff was taken (0: none).
type debt struct {
	id    string
	count uint64
	from  int
	rev   uint64
}

// pay writes the owner records of the entities taken, together; those
// NATS did not take stay owed and are tried again next frame (payOwed),
// so that a record lags behind its entity by one handoff at most.
func (n *Net) pay(ds []debt) {
	done := make([]bool, len(ds))
	n.together(len(ds), func(ctx context.Context, i int) { done[i] = n.payOne(ctx, ds[i]) })
	for i, d := range ds {
		if !done[i] {
			n.owed = append(n.owed, d)
		}
	}
}

// payOwed tries again the owner records owed.
func (n *Net) payOwed() {
	if len(n.owed) == 0 || !n.isConnected() {
		return
	}
	ds := n.owed
	n.owed = nil
	for i := range ds {
		ds[i].rev = 0
	}
	n.pay(ds)
	if len(n.owed) == 0 && n.owedSaid {
		fmt.Fprintf(n.opts.Log, "zone %d: the owner records owed are written\n", n.opts.Zone)
		n.owedSaid = false
	}
}

// payOne writes one owed record by compare-and-set, and reports whether
// the debt is settled: written, written by the sender meanwhile, or gone
// (the entity moved on or died, a newer claim).
func (n *Net) payOne(ctx context.Context, d debt) bool {
	value := owner{zone: n.opts.Zone, count: d.count, epoch: n.epoch}.value()
	rev := d.rev
	if rev == 0 {
		e, err := n.owner.Get(ctx, d.id)
		switch {
		case errors.Is(err, jetstream.ErrKeyNotFound):
		case err != nil:
			return false
		default:
			o, err := parseOwner(e.Value())
			if err == nil && o.zone == n.opts.Zone && o.count == d.count && o.epoch == n.epoch {
				return true
			}
			if err == nil && !(o.zone == d.from && o.count < d.count || o.zone == n.opts.Zone && o.count == d.count) {
				return true
			}
			rev = e.Revision()
		}
	}
	var err error
	if rev == 0 {
		_, err = n.owner.Create(ctx, d.id, value)
	} else {
		_, err = n.owner.Update(ctx, d.id, value, rev)
	}
	if err == nil {
		return true
	}
	if isConflict(err) && d.rev != 0 {
		// Changed since it was read: read it again next frame.
		return false
	}
	if !n.owedSaid {
		fmt.Fprintf(n.opts.Log, "zone %d: owner record of %s not updated (%v); trying again every frame\n", n.opts.Zone, d.id, err)
		n.owedSaid = true
	}
	return false
}

// handOn sets the owner records of the entities whose handoffs NATS
// stored to their receivers, each with a compare-and-set from this zone
// and the count before: from then on the record says that the entity is
// no longer this zone's, whatever this zone replays after a restart. A
// record that names another zone or count is left alone, and one that
// could not be written is written by the receiver when it takes the
// entity (a restart before that finds the handoff in the stream). A
// record stamped by a newer claim of this zone fences it.
func (n *Net) handOn(hs []handoff) {
	n.together(len(hs), func(ctx context.Context, i int) {
		h := hs[i]
		value := owner{zone: h.To, count: h.Count, epoch: n.claimOf(h.To)}.value()
		e, err := n.owner.Get(ctx, h.ID)
		if errors.Is(err, jetstream.ErrKeyNotFound) {
			_, _ = n.owner.Create(ctx, h.ID, value)
			return
		}
		if err != nil {
			return
		}
		o, err := parseOwner(e.Value())
		switch {
		case err != nil || o.zone != n.opts.Zone || o.count+1 != h.Count:
		case o.epoch > n.epoch:
			n.fence("an owner record of a newer claim")
		default:
			_, _ = n.owner.Update(ctx, h.ID, value, e.Revision())
		}
	})
}

// ownerSet creates the owner record of a new entity.
func (n *Net) ownerSet(id netID) {
	if !n.isConnected() {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), n.opts.Timeout)
	defer cancel()
	_, _ = n.owner.Create(ctx, id.ID, owner{zone: n.opts.Zone, count: id.Count, epoch: n.epoch}.value())
}

// bury turns the owner records of the entities that died here into
// their tombstones, each by compare-and-set on a record that names this
// zone at the entity's count (or none: a new entity whose record NATS
// did not take); those NATS did not take are tried again next frame.
func (n *Net) bury() {
	if len(n.graves) == 0 || !n.isConnected() {
		return
	}
	done := make([]bool, len(n.graves))
	n.together(len(n.graves), func(ctx context.Context, i int) {
		id := n.graves[i]
		value := owner{zone: dead, count: id.Count}.value()
		e, err := n.owner.Get(ctx, id.ID)
		if errors.Is(err, jetstream.ErrKeyNotFound) {
			_, err = n.owner.Create(ctx, id.ID, value)
			done[i] = err == nil || isConflict(err)
			return
		}
		if err != nil {
			return
		}
		o, err := parseOwner(e.Value())
		switch {
		case err != nil || o.zone != n.opts.Zone || o.count != id.Count:
			done[i] = true
		case o.epoch > n.epoch:
			done[i] = true
			n.fence("an owner record of a newer claim")
		default:
			_, err = n.owner.Update(ctx, id.ID, value, e.Revision())
			done[i] = err == nil || isConflict(err)
		}
	})
	var still []netID
	for i, id := range n.graves {
		if !done[i] {
			still = append(still, id)
		}
	}
	n.graves = still
}
