package nats

import (
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"sync"
	"time"

	natsio "github.com/nats-io/nats.go"

	"github.com/luahost/luahost/zones"
)

// A world in lockstep over NATS. Each zone publishes its part of every
// round (zones.Link) on its own plain subject, luahost.<world>.lockstep.<zone>,
// cut into messages the server takes (its max_payload), and reads the
// other zones' parts from luahost.<world>.lockstep.*. NATS keeps the
// order of one publisher's messages to one subscriber, and a zone runs
// at most one round ahead of the slowest, so a part is told by its
// zone and its round's count alone. Before the first round, every zone
// says hello until it has heard from every other: a zone publishes its
// first part only once every zone is subscribed. Nothing is stored:
// lockstep trades the fault tolerance of Net for a world that plays as
// in one process; a zone gone, or NATS lost for longer than the
// messages it drops, stops the world with an error (LinkOptions.Timeout).

// DefaultPeerTimeout is how long a round of a world in lockstep waits for
// the other zones' parts when LinkOptions.Timeout is zero.
const DefaultPeerTimeout = 30 * time.Second

// Headers of a lockstep message: the round's count (0: hello), which of
// the round's messages it is ("i/n", from 0), and the sending process's
// token.
const (
	headerRound = "Luahost-Round"
	headerPart  = "Luahost-Part"
	headerToken = "Luahost-Token"
)

// LinkOptions configures the NATS link of one zone of a world in
// lockstep.
type LinkOptions struct {
	// URL is the NATS server's URL, or a cluster's URLs separated by
	// commas.
	URL string
	// World names the world: the zones of one world share its name.
	World string
	// Zone is this zone's number, from 0, of Zones.
	Zone, Zones int
	// Creds is the file of the zone's NATS identity (see
	// NetOptions.Creds): it needs to publish on its own lockstep subject,
	// to read the world's, and to answer and request its claim. The
	// default ("") connects without one.
	Creds string
	// Log receives the link's notices (NATS lost and back, junk on the
	// world's subjects). The default (nil) value is os.Stderr.
	Log io.Writer
	// Timeout bounds the wait for the other zones' parts of a round once
	// every zone came up. The default (zero) value is
	// DefaultPeerTimeout.
	Timeout time.Duration
	// StartTimeout bounds the wait for every zone of the world to come
	// up, before the first round. The default (zero) value is
	// DefaultStartTimeout.
	StartTimeout time.Duration
}

// Link is the NATS link of one zone of a world in lockstep: a
// zones.Link. Dial it with DialLink, give it to zones.NewLockstep, and
// Close it after the zone's Close.
type Link struct {
	opts  LinkOptions
	nc    *natsio.Conn
	sub   *natsio.Subscription
	claim *natsio.Subscription
	token string
	round uint64

	mu sync.Mutex
	// heard marks the zones heard from; tokens are their processes'.
	heard  []bool
	tokens []string
	// parts are the other zones' parts of rounds, as they arrive.
	parts map[roundKey]*assembly
	// err is why the world cannot go on (two processes for one zone);
	// current is the round under way (l.round, for NATS's goroutine).
	err     error
	current uint64
	note    chan struct{}
}

// maxParts bounds the messages of one part of a round: thousands of
// times a view of a big world, so that a message that says more is junk.
const maxParts = 4096

type roundKey struct {
	zone  int
	round uint64
}

// assembly is a zone's part of a round, as its messages arrive.
type assembly struct {
	chunks [][]byte
	got    int
}

// DialLink connects zone opts.Zone of a world in lockstep to NATS and
// claims the zone: a zone whose owner process is connected is refused
// with ErrClaimed (a zone run by Net and one in lockstep claim alike).
func DialLink(opts LinkOptions) (*Link, error) {
	if opts.Zone < 0 || opts.Zone >= opts.Zones {
		return nil, fmt.Errorf("zone %d: the world has %d zones (0 to %d)", opts.Zone, opts.Zones, opts.Zones-1)
	}
	if !validName(opts.World) {
		return nil, fmt.Errorf("world %q: want letters, digits, '-' and '_' only", opts.World)
	}
	if opts.Log == nil {
		opts.Log = os.Stderr
	}
	if opts.Timeout == 0 {
		opts.Timeout = DefaultPeerTimeout
	}
	if opts.StartTimeout == 0 {
		opts.StartTimeout = DefaultStartTimeout
	}
	l := &Link{opts: opts, heard: make([]bool, opts.Zones), tokens: make([]string, opts.Zones),
		parts: make(map[roundKey]*assembly), note: make(chan struct{}, 1)}
	l.heard[opts.Zone] = true
	nc, err := connect(opts.URL, opts.World, opts.Zone, opts.Creds, 2*time.Second, opts.Log,
		natsio.DisconnectErrHandler(func(_ *natsio.Conn, err error) {
			if err != nil {
				fmt.Fprintf(opts.Log, "zone %d: lost NATS at %s: %v; the world waits for it\n", opts.Zone, opts.URL, err)
			}
		}),
		natsio.ReconnectHandler(func(*natsio.Conn) { fmt.Fprintf(opts.Log, "zone %d: NATS is back at %s\n", opts.Zone, opts.URL) }))
	if err != nil {
		return nil, err
	}
	l.nc = nc
	id, _ := nc.GetClientID()
	me := fmt.Sprintf("pid %d on %s", os.Getpid(), hostname())
	l.token = fmt.Sprintf("%s %s %d", me, nc.ConnectedServerId(), id)
	what := fmt.Sprintf("zone %d of world %s", opts.Zone, opts.World)
	if l.claim, err = answerClaims(nc, l.subject("claim."+strconv.Itoa(opts.Zone)), what, me, 2*time.Second); err != nil {
		nc.Close()
		return nil, err
	}
	if l.sub, err = nc.Subscribe(l.subject("lockstep.*"), l.take); err == nil {
		// A round's parts may be large: the link, not the server's
		// default limits, decides when they are too many.
		err = l.sub.SetPendingLimits(-1, -1)
	}
	if err == nil {
		err = nc.Flush()
	}
	if err != nil {
		nc.Close()
		return nil, fmt.Errorf("%s: subscribe: %w", what, err)
	}
	return l, nil
}

func (l *Link) subject(part string) string { return "luahost." + l.opts.World + "." + part }

// take files a message of another zone: it runs on NATS's goroutine.
// A message that does not read is logged and dropped.
func (l *Link) take(m *natsio.Msg) {
	zone, err := strconv.Atoi(m.Subject[strings.LastIndexByte(m.Subject, '.')+1:])
	if err != nil || zone < 0 || zone >= l.opts.Zones {
		fmt.Fprintf(l.opts.Log, "zone %d: dropped a message on %s: no zone of the world\n", l.opts.Zone, m.Subject)
		return
	}
	if zone == l.opts.Zone && m.Header.Get(headerToken) == l.token {
		return
	}
	round, rerr := strconv.ParseUint(m.Header.Get(headerRound), 10, 64)
	i, n, perr := parsePart(m.Header.Get(headerPart))
	if rerr != nil || round > 0 && (perr != nil || n > maxParts) {
		fmt.Fprintf(l.opts.Log, "zone %d: dropped a message on %s: not a lockstep round's\n", l.opts.Zone, m.Subject)
		return
	}
	l.mu.Lock()
	defer l.mu.Unlock()
	if round > 0 && (round < l.current || round > l.current+1) {
		// A zone is at most one round ahead of another: this is no
		// round of the world's.
		fmt.Fprintf(l.opts.Log, "zone %d: dropped a message of round %d on %s during round %d\n", l.opts.Zone, round, m.Subject, l.current)
		return
	}
	defer l.signal()
	token := m.Header.Get(headerToken)
	switch {
	case zone == l.opts.Zone:
		l.err = fmt.Errorf("zone %d of world %s: another process sends as this zone", zone, l.opts.World)
		return
	case l.tokens[zone] == "":
		l.tokens[zone] = token
	case l.tokens[zone] != token:
		l.err = fmt.Errorf("zone %d of world %s: messages from two processes (%s; %s): a world in lockstep cannot take a zone back once it runs; stop every zone and start the world again",
			zone, l.opts.World, l.tokens[zone], token)
		return
	}
	l.heard[zone] = true
	if round == 0 {
		return
	}
	key := roundKey{zone, round}
	a := l.parts[key]
	if a == nil {
		a = &assembly{chunks: make([][]byte, n)}
		l.parts[key] = a
	}
	if len(a.chunks) != n || a.chunks[i] != nil {
		fmt.Fprintf(l.opts.Log, "zone %d: dropped a message of zone %d's round %d: part %d/%d does not fit\n", l.opts.Zone, zone, round, i, n)
		return
	}
	a.chunks[i] = m.Data
	if a.chunks[i] == nil {
		a.chunks[i] = []byte{}
	}
	a.got++
}

// parsePart reads a part header, "i/n".
func parsePart(s string) (int, int, error) {
	a, b, ok := strings.Cut(s, "/")
	i, err1 := strconv.Atoi(a)
	n, err2 := strconv.Atoi(b)
	if !ok || err1 != nil || err2 != nil || n < 1 || i < 0 || i >= n {
		return 0, 0, fmt.Errorf("part %q", s)
	}
	return i, n, nil
}

func (l *Link) signal() {
	select {
	case l.note <- struct{}{}:
	default:
	}
}

// Exchange runs the zone's next round (zones.Link): before the first, it
// waits for every zone of the world to come up (within
// LinkOptions.StartTimeout), then it publishes msg and waits for every
// other zone's part (the first round within StartTimeout, the others
// within Timeout).
func (l *Link) Exchange(msg []byte) ([][]byte, error) {
	l.round++
	l.mu.Lock()
	l.current = l.round
	l.mu.Unlock()
	wait := l.opts.Timeout
	if l.round == 1 {
		wait = l.opts.StartTimeout
		if err := l.hello(); err != nil {
			return nil, err
		}
	}
	if err := l.publish(msg); err != nil {
		return nil, err
	}
	deadline := time.NewTimer(wait)
	defer deadline.Stop()
	for {
		parts, missing, err := l.gather()
		if err != nil {
			return nil, err
		}
		if missing == nil {
			parts[l.opts.Zone] = msg
			return parts, nil
		}
		select {
		case <-l.note:
		case <-deadline.C:
			return nil, fmt.Errorf("no word from %s of world %s for round %d within %s: the world stops", zonesNamed(missing), l.opts.World, l.round, wait)
		}
	}
}

// hello says hello on the zone's subject until every zone of the world
// was heard from.
func (l *Link) hello() error {
	deadline := time.Now().Add(l.opts.StartTimeout)
	tick := time.NewTicker(100 * time.Millisecond)
	defer tick.Stop()
	for {
		m := natsio.NewMsg(l.subject("lockstep." + strconv.Itoa(l.opts.Zone)))
		m.Header.Set(headerRound, "0")
		m.Header.Set(headerToken, l.token)
		if err := l.nc.PublishMsg(m); err != nil {
			return fmt.Errorf("say hello: %w", err)
		}
		l.mu.Lock()
		var missing []int
		for z, ok := range l.heard {
			if !ok {
				missing = append(missing, z)
			}
		}
		err := l.err
		l.mu.Unlock()
		switch {
		case err != nil:
			return err
		case missing == nil:
			return nil
		case time.Now().After(deadline):
			return fmt.Errorf("%s of world %s did not come up within %s", zonesNamed(missing), l.opts.World, l.opts.StartTimeout)
		}
		select {
		case <-l.note:
		case <-tick.C:
		}
	}
}

// publish sends msg as the zone's part of the round, in messages the
// server takes.
func (l *Link) publish(msg []byte) error {
	// What is left of the server's limit once the headers are in.
	size := max(int(l.nc.MaxPayload())-512, int(l.nc.MaxPayload())/2)
	n := max(1, (len(msg)+size-1)/size)
	for i := range n {
		m := natsio.NewMsg(l.subject("lockstep." + strconv.Itoa(l.opts.Zone)))
		m.Header.Set(headerRound, strconv.FormatUint(l.round, 10))
		m.Header.Set(headerPart, strconv.Itoa(i)+"/"+strconv.Itoa(n))
		m.Header.Set(headerToken, l.token)
		m.Data = msg[i*size : min(len(msg), (i+1)*size)]
		if err := l.nc.PublishMsg(m); err != nil {
			return fmt.Errorf("zone %d: publish round %d: %w", l.opts.Zone, l.round, err)
		}
	}
	return l.nc.Flush()
}

// gather returns every zone's part of the current round once all
// arrived (missing nil), or the zones still missing.
func (l *Link) gather() ([][]byte, []int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	if l.err != nil {
		return nil, nil, l.err
	}
	var missing []int
	for z := range l.opts.Zones {
		a := l.parts[roundKey{z, l.round}]
		if z != l.opts.Zone && (a == nil || a.got < len(a.chunks)) {
			missing = append(missing, z)
		}
	}
	if missing != nil {
		return nil, missing, nil
	}
	parts := make([][]byte, l.opts.Zones)
	for z := range parts {
		if z == l.opts.Zone {
			continue
		}
		key := roundKey{z, l.round}
		for _, c := range l.parts[key].chunks {
			parts[z] = append(parts[z], c...)
		}
		delete(l.parts, key)
	}
	return parts, nil, nil
}

// Close ends the link: its claim and its connection.
func (l *Link) Close() error {
	_ = l.sub.Unsubscribe()
	_ = l.claim.Unsubscribe()
	l.nc.Close()
	return nil
}

// zonesNamed names zones: "zone 1", "zones 1 and 2", "zones 1, 2 and 3".
func zonesNamed(zs []int) string {
	s := make([]string, len(zs))
	for i, z := range zs {
		s[i] = strconv.Itoa(z)
	}
	if len(s) == 1 {
		return "zone " + s[0]
	}
	return "zones " + strings.Join(s[:len(s)-1], ", ") + " and " + s[len(s)-1]
}

var _ zones.Link = (*Link)(nil)
