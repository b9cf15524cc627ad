package nats

import (
	"context"
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/nats-io/nats.go/jetstream"
)

// claim is a zone's claim epoch and when it was claimed.
type claim struct {
	epoch uint64
	at    time.Time
}

// A claim record is "EPOCH WHO": the claim's fencing epoch and who
// claimed it (a record without an epoch reads as epoch 0).
func claimValue(epoch uint64, who string) []byte {
	return []byte(strconv.FormatUint(epoch, 10) + " " + who)
}

func parseClaim(b []byte) uint64 {
	e, _, _ := strings.Cut(string(b), " ")
	epoch, _ := strconv.ParseUint(e, 10, 64)
	return epoch
}

// watchClaims follows the world's claim records until ctx ends: a handoff
// stored after its sender's zone was claimed again by a newer epoch is
// refused, and this zone is fenced once its own claim is taken over.
func (n *Net) watchClaims(ctx context.Context) error {
	for z := range n.opts.Layout.Zones() {
		// One watch a zone: older servers take one key only.
		watch, err := n.saves.Watch(ctx, "claim-zone-"+strconv.Itoa(z))
		if err != nil {
			return fmt.Errorf("watch the claims: %w", err)
		}
		go n.followClaims(z, watch)
	}
	return nil
}

// followClaims notes the claims of zone z as they change.
func (n *Net) followClaims(z int, watch jetstream.KeyWatcher) {
	for e := range watch.Updates() {
		if e == nil || e.Operation() != jetstream.KeyValuePut {
			continue
		}
		c := claim{parseClaim(e.Value()), e.Created()}
		n.mu.Lock()
		if c.epoch > n.claims[z].epoch {
			n.claims[z] = c
		}
		n.mu.Unlock()
		if z == n.opts.Zone && c.epoch > n.epoch {
			n.fence(fmt.Sprintf("epoch %d, this process's is %d", c.epoch, n.epoch))
		}
		n.signal()
	}
}

// checkFence fails with ErrFenced once the zone's claim was taken over.
// A zone that did not step for longer than a claim waits (it was
// stopped, or starved) reads its claim record again first, so that a
// process woken after a takeover stops before it writes anything.
func (n *Net) checkFence() error {
	now := time.Now()
	gap := now.Sub(n.lastStep)
	n.lastStep = now
	if gap > n.opts.Timeout/2 && n.isConnected() {
		ctx, cancel := context.WithTimeout(context.Background(), n.opts.Timeout)
		defer cancel()
		if e, err := n.saves.Get(ctx, "claim-zone-"+strconv.Itoa(n.opts.Zone)); err == nil && parseClaim(e.Value()) != n.epoch {
			n.fence(fmt.Sprintf("epoch %d, this process's is %d", parseClaim(e.Value()), n.epoch))
		}
	}
	if n.isFenced() {
		return fmt.Errorf("zone %d of world %s %w", n.opts.Zone, n.opts.World, ErrFenced)
	}
	return nil
}

func (n *Net) isFenced() bool {
	n.mu.Lock()
	defer n.mu.Unlock()
	return n.fenced
}

// staleSender tells whether the handoff in m was sent by an owner of its
// zone older than the zone's latest claim, after that claim: a process
// that was taken over.
func (n *Net) staleSender(h handoff, m jetstream.Msg) bool {
	n.mu.Lock()
	c := n.claims[h.From]
	n.mu.Unlock()
	if h.Epoch >= c.epoch {
		return false
	}
	md, err := m.Metadata()
	return err == nil && md.Timestamp.After(c.at)
}

// claimOf returns the latest claim epoch of zone z that this zone knows.
func (n *Net) claimOf(z int) uint64 {
	n.mu.Lock()
	defer n.mu.Unlock()
	return n.claims[z].epoch
}

// fence notes that another process claimed the zone, as why says.
func (n *Net) fence(why string) {
	n.mu.Lock()
	defer n.mu.Unlock()
	if !n.fenced {
		n.fenced = true
		fmt.Fprintf(n.opts.Log, "zone %d: %v (%s); stopping\n", n.opts.Zone, ErrFenced, why)
	}
}

// before tells whether the handoff in m was stored before this process
// claimed the zone: a later one from this zone was sent by a process
// taken over, and its receiver refuses it.
func (n *Net) before(m jetstream.Msg) bool {
	md, err := m.Metadata()
	return err != nil || !md.Timestamp.After(n.claimedAt)
}
