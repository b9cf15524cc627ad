package inspect

import (
	"crypto/subtle"
	"errors"
	"fmt"
	"net"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"time"

	"github.com/luahost/luahost/luabind"
	"github.com/luahost/luahost/runtime"
)

// Options configures an Inspector. The zero value works: every request
// is served, none needs a token, and the world may be paused, edited and
// evaluated in, from the loopback host names only.
type Options struct {
	// Token, when not empty, must come with every request that changes
	// the world (POST), and with every request when TokenForReads is
	// set: as the header "Authorization: Bearer TOKEN", as the query
	// parameter token=TOKEN (which the page passes on), or as the
	// SameSite cookie set by a request that gave the query parameter
	// (so that the page's own files load). The default
	// (empty) value needs no token. Either way, a request without the
	// token is answered only when addressed to a loopback host name
	// (localhost, 127.0.0.1, [::1]), so that a web page of another site
	// cannot reach the inspector through a DNS name pointed at
	// 127.0.0.1, and one whose Origin is another site is refused.
	Token string
	// TokenForReads makes every request, reads and the page too, need the
	// Token, as on an address other than loopback. New refuses it without
	// a Token. The default (false) value lets reads through without it.
	TokenForReads bool
	// ReadOnly turns off pause, step, resume, edits and eval: they answer
	// 403. The default (false) value allows them.
	ReadOnly bool
	// Debugger is the debugger the page's debugger panel drives (the
	// /api/debug endpoints): the host's, from Host.Debugger, which may
	// serve an editor over DAP at the same time. The default (nil) value
	// means no panel: the endpoints answer 409.
	Debugger *luabind.Debugger
	// Timeline moves the world back (the /api/timeline and /api/rewind
	// endpoints). The default (nil) value means the world has no history
	// and those answer 409.
	Timeline Timeline
}

// Inspector serves a live view of one Host's world over HTTP: the JSON API
// and the page (docs/inspector.md). It is an http.Handler to mount on any ServeMux
// (under a prefix with http.StripPrefix; the page uses relative links).
//
// Every request that reads or changes the world is queued and served by
// the goroutine that drives the world, between frames: at the end of
// every Step (a hook New registers), and whenever that goroutine calls
// Drain. While the world is paused, the end of Step (or Drain) blocks,
// serving requests, until a resume, a step or Close. The HTTP side is safe
// for concurrent use; Drain and New belong to the driving goroutine.
type Inspector struct {
	host *luabind.Host
	rt   *runtime.Runtime
	opts Options
	mux  *http.ServeMux
	hub  *hub

	mu     sync.Mutex
	queue  []*request
	wake   chan struct{}
	closed chan struct{}
	once   sync.Once
	// debugPaused is set while the debugger holds the world paused.
	debugPaused atomic.Bool

	// The fields below belong to the driving goroutine.
	paused bool
	// moving is set while the world moves to another host (a rewind).
	moving bool
	// steps are the step requests waiting for their frame, oldest first.
	steps      []*request
	frameStart time.Time
	frameTime  time.Duration
	// faults are the last errors of instances, by entity and script.
	faults map[faultKey]*runtime.ScriptError
	// errors are the distinct errors of the world since the inspector
	// started.
	errors *luabind.ErrorTally
	// insts is the buffer of an entity's instances in a listing.
	insts []*runtime.Instance
	// published is when a frame summary last went to the streams.
	published time.Time
	// answers are the answers of the reads served since the world last
	// changed (a frame ran, or a request changed it), by request URI:
	// identical reads share one.
	answers map[string]any
	clients clients
}

// New returns an inspector of host's world and registers its hooks on the
// host and its runtime (frame timing, serving requests at the end of
// every Step, errors, reloads, Close). Call it between frames, on the
// goroutine that drives the world.
func New(host *luabind.Host, opts Options) (*Inspector, error) {
	rt := host.Runtime()
	switch {
	case opts.TokenForReads && opts.Token == "":
		return nil, errors.New("inspect: TokenForReads needs a Token")
	case rt.Closed():
		return nil, fmt.Errorf("inspect: %w", runtime.ErrClosed)
	case rt.Stepping():
		return nil, fmt.Errorf("inspect: %w", runtime.ErrStepping)
	}
	in := &Inspector{
		opts:   opts,
		hub:    newHub(),
		wake:   make(chan struct{}, 1),
		closed: make(chan struct{}),
		faults: make(map[faultKey]*runtime.ScriptError),
	}
	in.routes()
	in.bind(host)
	if d := opts.Debugger; d != nil {
		d.Observe(in.onDebug)
	}
	return in, nil
}

// bind makes host's world the one inspected and registers the hooks on
// it. Closing its runtime closes the inspector, unless the world has
// moved on to another host meanwhile.
func (in *Inspector) bind(host *luabind.Host) {
	rt := host.Runtime()
	in.host, in.rt = host, rt
	in.errors = luabind.NewErrorTally(rt)
	clear(in.faults)
	clear(in.answers)
	rt.BeforeStep(in.beforeStep)
	rt.AfterStep(func() {
		if in.rt == rt {
			in.afterStep()
		}
	})
	rt.OnReport(in.onReport)
	host.ObserveReloads(in.onReload)
	rt.OnClose(func() {
		if in.rt == rt && !in.moving {
			in.Close()
		}
	})
}

// Close ends the inspector: a paused world runs on, waiting and later
// requests are answered 503, streams end. It is safe to call from any
// goroutine, more than once; closing the runtime closes it too.
func (in *Inspector) Close() {
	in.once.Do(func() {
		close(in.closed)
		in.hub.close()
	})
}

// Pending returns a channel that receives when requests wait to be
// served: a loop that sleeps between frames selects on it and calls
// Drain, so that requests need not wait for the next frame.
func (in *Inspector) Pending() <-chan struct{} { return in.wake }

func (in *Inspector) routes() {
	m := http.NewServeMux()
	m.HandleFunc("GET /{$}", in.page)
	m.HandleFunc("GET /inspect.css", in.page)
	m.HandleFunc("GET /inspect.js", in.page)
	m.HandleFunc("GET /api/world", in.getWorld)
	m.HandleFunc("GET /api/entities", in.getEntities)
	m.HandleFunc("GET /api/entities/{id}", in.getEntity)
	m.HandleFunc("GET /api/blackboard", in.getBlackboard)
	m.HandleFunc("GET /api/scripts", in.getScripts)
	m.HandleFunc("GET /api/errors", in.getErrors)
	m.HandleFunc("GET /api/stream", in.stream)
	m.HandleFunc("POST /api/pause", in.mutating(in.postPause))
	m.HandleFunc("POST /api/resume", in.mutating(in.postResume))
	m.HandleFunc("POST /api/step", in.mutating(in.postStep))
	m.HandleFunc("POST /api/entities/{id}/self", in.mutating(in.postSelf))
	m.HandleFunc("POST /api/entities/{id}/restart", in.mutating(in.postRestart))
	m.HandleFunc("POST /api/blackboard", in.mutating(in.postBlackboard))
	m.HandleFunc("POST /api/eval", in.mutating(in.postEval))
	m.HandleFunc("GET /api/debug", in.getDebug)
	m.HandleFunc("GET /api/debug/source", in.getSource)
	m.HandleFunc("GET /api/debug/frame", in.getFrame)
	m.HandleFunc("GET /api/debug/variables", in.getVariables)
	m.HandleFunc("POST /api/debug/breakpoints", in.mutating(in.postBreakpoints))
	m.HandleFunc("POST /api/debug/{action}", in.mutating(in.postDebug))
	m.HandleFunc("GET /api/timeline", in.getTimeline)
	m.HandleFunc("POST /api/rewind", in.mutating(in.postRewind))
	m.HandleFunc("/api/", func(w http.ResponseWriter, r *http.Request) {
		if allowed := in.methods(r); allowed != "" {
			w.Header().Set("Allow", allowed)
			fail(w, http.StatusMethodNotAllowed, "%s %s: method not allowed (want %s)", r.Method, r.URL.Path, allowed)
			return
		}
		fail(w, http.StatusNotFound, "no API endpoint %s %s (see GET /api/world, /api/entities, /api/entities/{id}, /api/blackboard, /api/scripts, /api/errors, /api/stream, /api/debug, /api/debug/source, /api/debug/frame, /api/debug/variables, /api/timeline; POST /api/pause, /api/resume, /api/step, /api/entities/{id}/self, /api/entities/{id}/restart, /api/blackboard, /api/eval, /api/debug/breakpoints, /api/debug/{continue,next,stepIn,stepOut,pause}, /api/rewind)", r.Method, r.URL.Path)
	})
	m.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		fail(w, http.StatusNotFound, "no page %s", r.URL.Path)
	})
	in.mux = m
}

// methods returns the methods an API path takes ("GET", "POST"), or ""
// for a path that is no endpoint.
func (in *Inspector) methods(r *http.Request) string {
	var ok []string
	for _, m := range []string{http.MethodGet, http.MethodPost} {
		probe := r.Clone(r.Context())
		probe.Method = m
		if _, pattern := in.mux.Handler(probe); pattern != "/api/" && pattern != "/" {
			ok = append(ok, m)
		}
	}
	return strings.Join(ok, ", ")
}

// ServeHTTP answers one request: the page and its files, or the API. A
// request refused by the token or host rules is answered 401 or 403
// before anything else. Every answer of the API is JSON, errors too:
// {"error": "message"}.
func (in *Inspector) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	w.Header().Set("Cache-Control", "no-store")
	w.Header().Set("X-Content-Type-Options", "nosniff")
	if status, msg := in.admit(r); status != 0 {
		fail(w, status, "%s", msg)
		return
	}
	if !in.clients.allow(r, time.Now()) {
		w.Header().Set("Retry-After", "1")
		fail(w, http.StatusTooManyRequests, "too many requests from %s: at most %d a second", r.RemoteAddr, clientRate)
		return
	}
	if in.opts.Token != "" && r.URL.Query().Get("token") != "" {
		// The page was opened with its token: its stylesheet, script and
		// requests carry it as a cookie that no other site's page sends.
		http.SetCookie(w, &http.Cookie{Name: tokenCookie, Value: in.opts.Token, Path: "/", HttpOnly: true, SameSite: http.SameSiteStrictMode})
	}
	in.mux.ServeHTTP(w, r)
}

// admit applies the token, host and origin rules and returns a
// refusal's status and message, or 0. A request without the token must be
// addressed to a loopback host name, whether or not a Token is set, so
// that a web page cannot read the world through a DNS name of its own
// pointed at 127.0.0.1 (the token, in a header, the query or a cookie of
// the inspector's own host, is what such a page cannot send). A request
// that says it comes from another site's page (Origin) is refused, reads
// included.
func (in *Inspector) admit(r *http.Request) (int, string) {
	mutating := r.Method != http.MethodGet && r.Method != http.MethodHead
	hasToken := in.opts.Token != "" && in.tokenOK(r)
	switch {
	case in.opts.Token != "" && (in.opts.TokenForReads || mutating) && !hasToken:
		return http.StatusUnauthorized, "a token is required: the header \"Authorization: Bearer TOKEN\" or ?token=TOKEN (printed on stderr at start)"
	case !hasToken && !loopbackHost(r.Host):
		return http.StatusForbidden, fmt.Sprintf("host %s refused: without the token the inspector answers loopback host names only", quoteHost(r.Host))
	}
	// A page of another site may post a form here, or read with fetch;
	// browsers say where it came from.
	if o := r.Header.Get("Origin"); o != "" && !sameOrigin(o, r.Host) {
		return http.StatusForbidden, fmt.Sprintf("origin %s refused: requests must come from the inspector's own page", quoteHost(o))
	}
	return 0, ""
}

// quoteHost quotes a Host or Origin header for a refusal, cut short: a
// client chooses it.
func quoteHost(s string) string {
	const most = 256
	if len(s) > most {
		return strconv.Quote(s[:most]) + "..."
	}
	return strconv.Quote(s)
}

// tokenCookie carries the token for the page's own files and requests
// once the page was opened with ?token=.
const tokenCookie = "luahost_inspect_token"

// tokenOK reports whether r carries the token: in the Authorization
// header, the token query parameter, or the page's cookie.
func (in *Inspector) tokenOK(r *http.Request) bool {
	want := []byte(in.opts.Token)
	if auth, ok := strings.CutPrefix(r.Header.Get("Authorization"), "Bearer "); ok {
		return subtle.ConstantTimeCompare([]byte(auth), want) == 1
	}
	if q := r.URL.Query().Get("token"); q != "" {
		return subtle.ConstantTimeCompare([]byte(q), want) == 1
	}
	c, err := r.Cookie(tokenCookie)
	return err == nil && subtle.ConstantTimeCompare([]byte(c.Value), want) == 1
}

// loopbackHost reports whether the Host header names this machine's
// loopback: localhost, 127.0.0.0/8 or ::1, with or without a port.
func loopbackHost(hostport string) bool {
	host := hostport
	if h, _, err := net.SplitHostPort(hostport); err == nil {
		host = h
	}
	host = strings.TrimSuffix(strings.TrimPrefix(host, "["), "]")
	if strings.EqualFold(host, "localhost") {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// sameOrigin reports whether origin ("http://host:port") names host.
func sameOrigin(origin, host string) bool {
	_, rest, ok := strings.Cut(origin, "://")
	return ok && strings.EqualFold(rest, host)
}

// IsLoopback reports whether addr, a listen address ("127.0.0.1:7070",
// "localhost:0", "[::1]:80"), listens on loopback only. An empty host
// listens on every interface.
func IsLoopback(addr string) bool {
	host, _, err := net.SplitHostPort(addr)
	if err != nil || host == "" {
		return false
	}
	return loopbackHost(host)
}

// mutating guards a handler that changes the world: refused with 403
// when the inspector is read-only.
func (in *Inspector) mutating(h http.HandlerFunc) http.HandlerFunc {
	return func(w http.ResponseWriter, r *http.Request) {
		if in.opts.ReadOnly {
			fail(w, http.StatusForbidden, "the inspector is read-only: pause, step, resume, edits, eval, the debugger and rewinds are off")
			return
		}
		h(w, r)
	}
}
