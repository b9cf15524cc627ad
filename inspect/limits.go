package inspect

import (
	"net"
	"net/http"
	"sync"
	"time"
)

// What the inspector may cost the world. Requests are served by the
// goroutine that drives the world, so a page polling it, or many, must
// not slow the frames down: every answer's work is bounded by what the
// answer holds (a self is previewed, not copied), identical reads in one
// frame share one answer, the world serves requests for at most a slice
// of each frame (the rest wait for the next), and each client address may
// make at most clientRate requests a second (bursts of clientBurst).
const (
	// serveSlice is the most time of one frame's end the world spends
	// serving requests beyond the first, as a fraction of the frame's
	// own time, and at least serveMin.
	serveSlice = 20
	serveMin   = 500 * time.Microsecond
	// clientRate and clientBurst bound each client address's requests.
	clientRate  = 200
	clientBurst = 400
	// maxClients bounds the addresses whose buckets are kept; past it,
	// the idle ones are dropped.
	maxClients = 1024
)

// clients rate-limits requests by client address, a token bucket each.
// It is safe for concurrent use.
type clients struct {
	mu      sync.Mutex
	buckets map[string]*bucket
}

type bucket struct {
	tokens float64
	at     time.Time
}

// allow takes one token of r's client and reports whether there was one.
// O(1), and O(maxClients) once for every maxClients new addresses.
func (c *clients) allow(r *http.Request, now time.Time) bool {
	addr, _, err := net.SplitHostPort(r.RemoteAddr)
	if err != nil {
		addr = r.RemoteAddr
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.buckets == nil {
		c.buckets = make(map[string]*bucket)
	}
	b := c.buckets[addr]
	if b == nil {
		if len(c.buckets) >= maxClients {
			c.dropIdle(now)
		}
		b = &bucket{tokens: clientBurst, at: now}
		c.buckets[addr] = b
	}
	b.tokens = min(clientBurst, b.tokens+now.Sub(b.at).Seconds()*clientRate)
	b.at = now
	if b.tokens < 1 {
		return false
	}
	b.tokens--
	return true
}

// dropIdle forgets the buckets that are full again: their clients were
// idle long enough that a fresh bucket is the same.
func (c *clients) dropIdle(now time.Time) {
	for addr, b := range c.buckets {
		if b.tokens+now.Sub(b.at).Seconds()*clientRate >= clientBurst {
			delete(c.buckets, addr)
		}
	}
}

// Timeouts of the server NewServer makes.
const (
	// IdleTimeout closes a keep-alive connection idle that long: clients
	// that open connections and leave them would otherwise hold the
	// process's descriptors until no new client gets one.
	IdleTimeout = time.Minute
	// ReadHeaderTimeout bounds how long a client may take to send a
	// request's header.
	ReadHeaderTimeout = 10 * time.Second
)

// NewServer returns an http.Server that serves in with IdleTimeout and
// ReadHeaderTimeout set (no write timeout: event streams stay open).
func NewServer(in *Inspector) *http.Server {
	return &http.Server{Handler: in, ReadHeaderTimeout: ReadHeaderTimeout, IdleTimeout: IdleTimeout}
}
