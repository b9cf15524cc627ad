package nats

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	natsio "github.com/nats-io/nats.go"
	"github.com/nats-io/nats.go/jetstream"

	"github.com/luahost/luahost/luabind"
	"github.com/luahost/luahost/runtime"
	"github.com/luahost/luahost/snapshot"
	"github.com/luahost/luahost/zones"
	"github.com/luahost/luahost/zones/internal/departed"
)

// DefaultCheckpoint is how many frames a networked zone runs between two
// checkpoints when NetOptions.Checkpoint is zero.
const DefaultCheckpoint = 300

// maxCheckpointSize is the most bytes a checkpoint may unpack to when it
// is loaded, whatever the memory ceiling: a snapshot file's limit, far
// above a 10,000-entity zone's few megabytes. The default memory ceiling
// lowers it (loadCheckpoint). A variable for the tests.
var maxCheckpointSize int64 = snapshot.MaxSize

// ErrClaimed means that another live process runs the zone.
var ErrClaimed = errors.New("is claimed by another process")

// ErrFenced means that another process claimed the zone while this one
// was not answering (stopped, cut off): this one must stop, and its
// writes to NATS fail.
var ErrFenced = errors.New("was taken over by another process")

// NetOptions configures a zone that shares its world with other
// processes over NATS.
type NetOptions struct {
	// URL is the NATS server's URL.
	URL string
	// World names the world: the zones of one world share its name.
	World string
	// Zone is this zone's number, from 0.
	Zone int
	// Layout places the world's edges; every zone must have the same.
	Layout zones.Layout
	// Checkpoint is how many frames run between two checkpoints of the
	// zone. The default (zero) value is DefaultCheckpoint.
	Checkpoint int
	// Log receives the notices of the zone: NATS lost and back, handoffs
	// held and sent. The default (nil) value is os.Stderr.
	Log io.Writer
	// Timeout bounds each request to NATS (a claim, a publish, a
	// checkpoint). The default (zero) value is 2 seconds.
	Timeout time.Duration
	// Creds is the file of the zone's NATS identity: a user credentials
	// file (a JWT and its seed) or an nkey seed. Give each zone its own,
	// with permissions for its subjects only, so that no other client can
	// send the world's messages. The default ("") connects without one
	// (or as the URL's user), and every client of the server is trusted.
	Creds string
	// Replicas is how many servers of a NATS cluster keep a copy of the
	// world's handoff stream and its buckets, so that the world outlives
	// a server that fails. The default (zero) value means as many as the
	// cluster the zone connects to has, up to 3; 1 on a single server.
	// The zones of one world should agree: the last to start sets it.
	Replicas int
	// StartTimeout bounds the reading of the handoff stream's backlog
	// when the zone starts (Start); raise it for a stream of millions of
	// handoffs. The default (zero) value is DefaultStartTimeout.
	StartTimeout time.Duration
}

// DefaultStartTimeout is how long a zone's start may read the handoff
// stream's backlog when NetOptions.StartTimeout is zero.
const DefaultStartTimeout = time.Minute

// Net is one zone of a world shared over NATS: it claims its zone, hands
// off the entities that leave its strip to the zone that holds them now
// through the JetStream subject of its handoffs to that zone, takes the
// entities handed to it (each on the subject of its sender's handoffs to
// it), keeps every entity's owner record (zone, handoff count and claim
// epoch; a tombstone once it died) in a key-value bucket with
// compare-and-set, saves a checkpoint of itself every
// NetOptions.Checkpoint frames, and shares broadcasts and blackboard
// writes with the other zones. A restarted zone resumes from its last
// checkpoint. A zone claimed again by another process while this one did
// not answer stops: Step fails with ErrFenced. Like a World, a Net is
// driven by one goroutine.
type Net struct {
	opts  NetOptions
	nc    *natsio.Conn
	js    jetstream.JetStream
	owner jetstream.KeyValue
	saves jetstream.KeyValue
	claim *natsio.Subscription
	subs  []*natsio.Subscription
	cons  jetstream.ConsumeContext
	stop  context.CancelFunc
	// watchStop ends the owner records' watch.
	watchStop context.CancelFunc

	host *luabind.Host
	rt   *runtime.Runtime
	// ids are the world ids and handoff counts of the zone's entities,
	// by handle.
	ids  map[runtime.Handle]netID
	byID map[string]runtime.Handle
	made uint64
	// sent are the highest handoff counts this zone sent before it
	// started, of the entities whose handoffs are still in the stream.
	sent map[string]uint64
	// seq is the stream sequence of the last handoff dealt with, below
	// every one that waits: the zone's handoffs are purged up to it.
	seq uint64
	// held are the handoffs not yet stored by NATS, sent again every
	// frame; transit the ones stored, by world id, until the owner
	// record names the receiver.
	held    []handoff
	transit map[string]handoff
	// graves are the entities that died here whose tombstones NATS has
	// not taken yet; owed the owner records of entities taken that NATS
	// has not taken yet (owedSaid: said once); lagSaid the handoffs said
	// to wait for their owner records.
	graves   []netID
	owed     []debt
	owedSaid bool
	lagSaid  map[string]bool
	// moved remembers the handles of entities that left, with their world
	// ids; where says in which zone each of them is now, while it lives.
	moved departed.List[string]
	where map[string]int
	// inbox is what NATS delivered since the last frame, taken between
	// frames: handoffs, broadcasts, blackboard writes and owner changes.
	mu      sync.Mutex
	inbox   []jetstream.Msg
	waiting []jetstream.Msg
	// consumer counts the handoff consumers made (consume), so that what
	// an old one still delivers is dropped; delivered is the delivery
	// sequence of the last handoff the current one delivered.
	consumer  uint64
	delivered uint64
	// done are the handoff messages dealt with since the last
	// checkpoint, acknowledged once the next one is saved.
	done     []jetstream.Msg
	casts    []netCast
	writes   []netWrite
	owners   []ownerChange
	lastSeen map[string]writeStamp
	// Published at the end of a frame.
	outCasts  []netCast
	outWrites []netWrite
	written   map[string]int
	applying  bool
	note      chan struct{}
	frames    int
	connected bool
	heldSaid  bool
	// unsendable are the held handoffs NATS refused outright (larger
	// than its max_payload), said once each; saveSaid is set once the
	// zone said a checkpoint could not be saved, until one is.
	unsendable map[string]bool
	saveSaid   bool
	// ownersSaid is set once the zone said it cannot read owner records.
	ownersSaid bool
	rejoined   bool
	// gapSaid is set once a delivery gap was said (take).
	gapSaid bool
	closed  bool

	// epoch is the zone's claim's fencing epoch, one more than its last
	// owner's, claimed when; every handoff, owner record and checkpoint
	// the zone writes carries it. claims are the latest epochs of the
	// world's zones as the claim records say (under mu); fenced is set
	// once this zone's claim was taken over.
	epoch     uint64
	claimedAt time.Time
	claims    map[int]claim
	fenced    bool
	// cpRev is the revision of the zone's checkpoint record as this
	// process last wrote or read it: a checkpoint is written by
	// compare-and-set on it.
	cpRev    uint64
	lastStep time.Time
	// started is set once Start succeeded.
	started bool
}

// netID is an entity's world id and handoff count.
type netID struct {
	ID    string `json:"id"`
	Count uint64 `json:"count"`
}

// handoff is one entity on its way to zone To, last updated in frame
// Frame of zone From.
type handoff struct {
	To    int             `json:"to"`
	From  int             `json:"from"`
	Frame uint64          `json:"frame"`
	ID    string          `json:"id"`
	Count uint64          `json:"count"`
	Epoch uint64          `json:"epoch"`
	Snap  snapshot.Entity `json:"snap"`
}

// netCast is a broadcast between zones.
type netCast struct {
	Zone  int               `json:"zone"`
	Event string            `json:"event"`
	Data  runtime.PlainJSON `json:"data"`
}

// netWrite is a blackboard write between zones, stamped with the number
// of its frame and its zone, which order the writes of one key (never a
// clock a peer could set far ahead: a receiver holds a stamp at most
// maxAhead frames past its own frame).
type netWrite struct {
	Zone  int               `json:"zone"`
	Frame uint64            `json:"frame"`
	Key   string            `json:"key"`
	Value runtime.PlainJSON `json:"value"`
}

type writeStamp struct {
	frame uint64
	zone  int
}

// ownerChange is an owner record that changed (deleted: the entity died).
type ownerChange struct {
	id      string
	zone    int
	deleted bool
}

// checkpoint is what a zone saves of itself.
type checkpoint struct {
	Snapshot *snapshot.World  `json:"snapshot"`
	IDs      map[string]netID `json:"ids"`
	Made     uint64           `json:"made"`
	Seq      uint64           `json:"seq"`
	Held     []handoff        `json:"held,omitempty"`
	Graves   []netID          `json:"graves,omitempty"`
	Epoch    uint64           `json:"epoch"`
}

// names of the world's NATS objects.
func (o NetOptions) subject(part string) string { return "luahost." + o.World + "." + part }
func (o NetOptions) stream() string             { return "LUAHOST_" + o.World }

// handoffSubject is the subject of the handoffs from zone from to zone
// to, luahost.<world>.handoff.<to>.<from>: the sender is in the subject,
// so that a zone's NATS identity can be allowed to publish its own
// handoffs only. handoffsTo matches every handoff to zone to.
func (o NetOptions) handoffSubject(to, from int) string {
	return o.subject("handoff." + strconv.Itoa(to) + "." + strconv.Itoa(from))
}
func (o NetOptions) handoffsTo(to int) string { return o.subject("handoff." + strconv.Itoa(to) + ".*") }

// sender returns the sending zone that subject names when subject is
// handoffSubject(to, from), from written as handoffSubject writes it (no
// sign, no leading zero); for any other subject, ok is false.
func (o NetOptions) sender(subject string, to int) (from int, ok bool) {
	tail, ok := strings.CutPrefix(subject, o.subject("handoff."+strconv.Itoa(to)+"."))
	if !ok {
		return 0, false
	}
	from, err := strconv.Atoi(tail)
	if err != nil || from < 0 || strconv.Itoa(from) != tail {
		return 0, false
	}
	return from, true
}

// Dial connects to NATS, makes the world's stream and buckets if they do
// not exist, and claims the zone: a zone whose owner process is connected
// is refused with ErrClaimed; one whose owner's connection is gone (a
// crash, a kill) is taken over at once. Then LastCheckpoint tells whether
// the zone resumes, and Start runs it.
func Dial(opts NetOptions) (*Net, error) {
	if err := opts.Layout.Check(); err != nil {
		return nil, fmt.Errorf("layout: %w", err)
	}
	if opts.Zone < 0 || opts.Zone >= opts.Layout.Zones() {
		return nil, fmt.Errorf("zone %d: the world has %d zones (0 to %d)", opts.Zone, opts.Layout.Zones(), opts.Layout.Zones()-1)
	}
	if !validName(opts.World) {
		return nil, fmt.Errorf("world %q: want letters, digits, '-' and '_' only", opts.World)
	}
	if opts.Checkpoint == 0 {
		opts.Checkpoint = DefaultCheckpoint
	}
	if opts.Log == nil {
		opts.Log = os.Stderr
	}
	if opts.Timeout == 0 {
		opts.Timeout = 2 * time.Second
	}
	if opts.StartTimeout == 0 {
		opts.StartTimeout = DefaultStartTimeout
	}
	n := &Net{opts: opts, ids: make(map[runtime.Handle]netID), byID: make(map[string]runtime.Handle), transit: make(map[string]handoff), unsendable: make(map[string]bool),
		where: make(map[string]int), lastSeen: make(map[string]writeStamp),
		written: make(map[string]int), connected: true, note: make(chan struct{}, 1), claims: make(map[int]claim), lagSaid: make(map[string]bool)}
	nc, err := connect(opts.URL, opts.World, opts.Zone, opts.Creds, opts.Timeout, opts.Log,
		natsio.DisconnectErrHandler(n.lost), natsio.ReconnectHandler(n.back))
	if err != nil {
		return nil, err
	}
	n.nc = nc
	if err := n.setup(); err != nil {
		// Closed before the connection, so that its end is not reported
		// as NATS lost.
		n.mu.Lock()
		n.closed = true
		n.mu.Unlock()
		nc.Close()
		return nil, err
	}
	return n, nil
}

// connect connects zone zone of world to the NATS server(s) at url, with
// the zone's identity from creds (none: ""), each request bounded by
// timeout, reconnecting for ever, and the server's complaints (a
// permission the identity lacks, most often) written to log; more are
// the caller's own options.
func connect(url, world string, zone int, creds string, timeout time.Duration, log io.Writer, more ...natsio.Option) (*natsio.Conn, error) {
	opts := append([]natsio.Option{natsio.Name(fmt.Sprintf("luahost %s zone %d", world, zone)),
		natsio.Timeout(timeout), natsio.MaxReconnects(-1), natsio.ReconnectWait(200 * time.Millisecond),
		natsio.ErrorHandler(func(_ *natsio.Conn, _ *natsio.Subscription, err error) {
			fmt.Fprintf(log, "zone %d: NATS: %v\n", zone, err)
		})}, more...)
	if creds != "" {
		id, err := identity(creds)
		if err != nil {
			return nil, err
		}
		opts = append(opts, id)
	}
	nc, err := natsio.Connect(url, opts...)
	if err != nil {
		return nil, fmt.Errorf("connect to NATS at %s: %w", url, err)
	}
	return nc, nil
}

// identity reads a NATS identity from file: user credentials (a JWT
// and its seed) or an nkey seed.
func identity(file string) (natsio.Option, error) {
	data, err := os.ReadFile(file)
	if err != nil {
		return nil, fmt.Errorf("NATS credentials: %w", err)
	}
	if bytes.Contains(data, []byte("BEGIN NATS USER JWT")) {
		return natsio.UserCredentials(file), nil
	}
	id, err := natsio.NkeyOptionFromSeed(file)
	if err != nil {
		return nil, fmt.Errorf("NATS credentials %s: neither user credentials nor an nkey seed: %w", file, err)
	}
	return id, nil
}

func validName(s string) bool {
	return s != "" && strings.IndexFunc(s, func(r rune) bool {
		return !(r == '-' || r == '_' || r >= '0' && r <= '9' || r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z')
	}) < 0
}

// setup makes the stream and buckets and claims the zone.
func (n *Net) setup() error {
	ctx, cancel := context.WithTimeout(context.Background(), 4*n.opts.Timeout)
	defer cancel()
	js, err := jetstream.New(n.nc)
	if err != nil {
		return err
	}
	n.js = js
	r := n.replicas()
	if _, err := js.CreateOrUpdateStream(ctx, jetstream.StreamConfig{Name: n.opts.stream(),
		Subjects: []string{n.opts.subject("handoff.>")}, Duplicates: 10 * time.Minute, Replicas: r}); err != nil {
		return fmt.Errorf("handoff stream (%d replicas): %w", r, err)
	}
	if n.owner, err = js.CreateOrUpdateKeyValue(ctx, jetstream.KeyValueConfig{Bucket: "luahost_" + n.opts.World + "_owners", Replicas: r}); err != nil {
		return fmt.Errorf("owner bucket (%d replicas): %w", r, err)
	}
	if n.saves, err = js.CreateOrUpdateKeyValue(ctx, jetstream.KeyValueConfig{Bucket: "luahost_" + n.opts.World + "_checkpoints", Replicas: r}); err != nil {
		return fmt.Errorf("checkpoint bucket (%d replicas): %w", r, err)
	}
	if err := n.sameLayout(ctx); err != nil {
		return err
	}
	return n.takeClaim(ctx)
}

// maxReplicas is the most copies NetOptions.Replicas picks by itself.
const maxReplicas = 3

// replicas returns NetOptions.Replicas, or else as many servers as the
// cluster the zone is connected to has (the ones it was given and the
// ones the cluster told of), up to maxReplicas.
func (n *Net) replicas() int {
	if n.opts.Replicas > 0 {
		return n.opts.Replicas
	}
	if n.nc.ConnectedClusterName() == "" {
		return 1
	}
	return max(1, min(maxReplicas, len(n.nc.Servers())))
}

// sameLayout records the world's layout on the first start of any of its
// zones, and refuses a zone whose layout differs: its strips would
// overlap the others'.
func (n *Net) sameLayout(ctx context.Context) error {
	mine, err := json.Marshal(n.opts.Layout)
	if err != nil {
		return err
	}
	if _, err := n.saves.Create(ctx, "layout", mine); err == nil {
		return nil
	}
	e, err := n.saves.Get(ctx, "layout")
	if err != nil {
		return fmt.Errorf("the world's layout: %w", err)
	}
	var theirs zones.Layout
	if err := json.Unmarshal(e.Value(), &theirs); err != nil {
		return fmt.Errorf("the world's layout: %w", err)
	}
	if theirs.Axis != n.opts.Layout.Axis || !slices.Equal(theirs.Edges, n.opts.Layout.Edges) {
		return fmt.Errorf("world %s is cut along %s at %v, not along %s at %v as given here: every zone of a world needs the same edges",
			n.opts.World, zones.AxisName(theirs.Axis), theirs.Edges, zones.AxisName(n.opts.Layout.Axis), n.opts.Layout.Edges)
	}
	return nil
}

// takeClaim claims the zone: a live owner answers on the zone's claim
// subject, and then the claim is refused; otherwise this process answers
// from now on, and the claim record (compare-and-set) settles two
// processes that start at once.
func (n *Net) takeClaim(ctx context.Context) error {
	what := fmt.Sprintf("zone %d of world %s", n.opts.Zone, n.opts.World)
	me := fmt.Sprintf("pid %d on %s", os.Getpid(), hostname())
	sub, err := answerClaims(n.nc, n.opts.subject("claim."+strconv.Itoa(n.opts.Zone)), what, me, n.opts.Timeout)
	if err != nil {
		return err
	}
	n.claim = sub
	key := "claim-zone-" + strconv.Itoa(n.opts.Zone)
	token := me + " " + n.nc.ConnectedServerId() + " " + strconv.FormatUint(n.clientID(), 10)
	taken := fmt.Errorf("%s %w: another process took it at the same time", what, ErrClaimed)
	e, err := n.writeClaim(ctx, key, token)
	if err != nil {
		if isConflict(err) {
			return taken
		}
		return fmt.Errorf("claim %s: %w", what, err)
	}
	n.claimedAt = e.Created()
	n.claims[n.opts.Zone] = claim{n.epoch, n.claimedAt}
	n.lastStep = time.Now()
	return n.nc.Flush()
}

// answerClaims claims what (a zone) on the NATS subject subj: a live
// owner answers there, and then the claim is refused with ErrClaimed and
// the owner's answer; otherwise this process answers from now on, with
// me, on the subscription returned.
func answerClaims(nc *natsio.Conn, subj, what, me string, timeout time.Duration) (*natsio.Subscription, error) {
	msg, err := nc.Request(subj, nil, timeout)
	switch {
	case err == nil:
		return nil, fmt.Errorf("%s %w (%s); stop it first", what, ErrClaimed, msg.Data)
	case !errors.Is(err, natsio.ErrNoResponders) && !errors.Is(err, natsio.ErrTimeout):
		return nil, fmt.Errorf("claim %s: %w", what, err)
	}
	sub, err := nc.Subscribe(subj, func(m *natsio.Msg) { _ = m.Respond([]byte(me)) })
	if err != nil {
		return nil, fmt.Errorf("claim %s: %w", what, err)
	}
	return sub, nil
}

// writeClaim writes the zone's claim record, one epoch past the last, by
// compare-and-set, sets n.epoch and returns the record written. A write
// NATS did not answer (a cluster electing a leader, a server busy) is
// tried again within ctx: it may have been applied with its answer lost,
// and a cluster's replica may answer a read from before it, so the
// record holding this process's token is this claim, whatever a read or
// a compare-and-set said; a record holding another's is another
// process's claim.
func (n *Net) writeClaim(ctx context.Context, key, token string) (jetstream.KeyValueEntry, error) {
	mine := func(e jetstream.KeyValueEntry) bool { return strings.HasSuffix(string(e.Value()), " "+token) }
	for {
		var rev uint64
		e, err := n.saves.Get(ctx, key)
		switch {
		case err == nil && mine(e):
			n.epoch = parseClaim(e.Value())
			return e, nil
		case err == nil:
			n.epoch = parseClaim(e.Value()) + 1
			rev, err = n.saves.Update(ctx, key, claimValue(n.epoch, token), e.Revision())
		case errors.Is(err, jetstream.ErrKeyNotFound):
			n.epoch = 1
			rev, err = n.saves.Create(ctx, key, claimValue(n.epoch, token))
		}
		if err == nil {
			if e, err := n.saves.GetRevision(ctx, key, rev); err == nil {
				return e, nil
			}
		}
		if isConflict(err) {
			// Another's claim, or this one read back stale: the record
			// says which.
			if e, gerr := n.saves.Get(ctx, key); gerr == nil && !mine(e) {
				return nil, err
			}
		}
		select {
		case <-ctx.Done():
			if err == nil {
				err = ctx.Err()
			}
			return nil, err
		case <-time.After(100 * time.Millisecond):
		}
	}
}

func (n *Net) clientID() uint64 {
	id, _ := n.nc.GetClientID()
	return id
}

func hostname() string {
	h, err := os.Hostname()
	if err != nil {
		return "?"
	}
	return h
}

// LastCheckpoint returns the zone's last checkpoint, or nil when it has
// none (a first start, or a restart before the first checkpoint): then
// the zone starts from the scene.
func (n *Net) LastCheckpoint() (*snapshot.World, error) {
	cp, err := n.loadCheckpoint()
	if err != nil || cp == nil {
		return nil, err
	}
	return cp.Snapshot, nil
}

func (n *Net) loadCheckpoint() (*checkpoint, error) {
	ctx, cancel := context.WithTimeout(context.Background(), n.opts.Timeout)
	defer cancel()
	e, err := n.saves.Get(ctx, "zone-"+strconv.Itoa(n.opts.Zone))
	if errors.Is(err, jetstream.ErrKeyNotFound) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("load the checkpoint: %w", err)
	}
	n.cpRev = e.Revision()
	zr, err := gzip.NewReader(bytes.NewReader(e.Value()))
	if err != nil {
		return nil, fmt.Errorf("load the checkpoint of zone %d: %w", n.opts.Zone, err)
	}
	// A gzip bomb stops at the limit instead of filling the memory; so
	// does a checkpoint that parsing would take past the memory ceiling
	// (a ParseCost-th of it). The zone's host is not made yet: the ceiling
	// is the default one, which GOMEMLIMIT lowers.
	ceiling := luabind.DefaultCeiling()
	limit := min(maxCheckpointSize, snapshot.Limit(ceiling))
	limited := &io.LimitedReader{R: zr, N: limit + 1}
	var cp checkpoint
	if err := json.NewDecoder(limited).Decode(&cp); err != nil {
		if limited.N <= 0 {
			why := ""
			if limit < maxCheckpointSize {
				why = fmt.Sprintf(", what the %d MiB memory ceiling lets a restore parse (up to %d bytes of memory a byte)", ceiling>>20, snapshot.ParseCost)
			}
			return nil, fmt.Errorf("load the checkpoint of zone %d: it unpacks to more than %d bytes%s", n.opts.Zone, limit, why)
		}
		return nil, fmt.Errorf("load the checkpoint of zone %d: %w", n.opts.Zone, err)
	}
	return &cp, nil
}

// lost and back are NATS's connection handlers: they run on its goroutine.
func (n *Net) lost(_ *natsio.Conn, err error) {
	n.mu.Lock()
	defer n.mu.Unlock()
	if n.closed {
		return
	}
	n.connected = false
	reason := ""
	if err != nil {
		reason = ": " + err.Error()
	}
	fmt.Fprintf(n.opts.Log, "zone %d: lost NATS at %s%s; running on, holding outgoing handoffs\n", n.opts.Zone, n.opts.URL, reason)
}

func (n *Net) back(*natsio.Conn) {
	n.mu.Lock()
	defer n.mu.Unlock()
	n.connected, n.rejoined = true, true
	fmt.Fprintf(n.opts.Log, "zone %d: NATS is back at %s\n", n.opts.Zone, n.opts.URL)
}

func (n *Net) isConnected() bool {
	n.mu.Lock()
	defer n.mu.Unlock()
	return n.connected && n.nc.IsConnected()
}
