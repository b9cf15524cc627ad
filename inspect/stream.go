package inspect

import (
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"sync"
	"sync/atomic"
	"time"

	"github.com/luahost/luahost/luabind"
	"github.com/luahost/luahost/runtime"
)

// Limits of the event stream.
const (
	// maxRecent is how many recent errors and reloads a new stream
	// starts with.
	maxRecent = 100
	// maxBacklog is how many events a slow client may lag behind before
	// the oldest are dropped (frame summaries never lag: only the latest
	// is kept).
	maxBacklog = 256
	// frameEvery is the least time between two frame summaries sent to
	// one client: a page redraws at most 20 times a second.
	frameEvery = 50 * time.Millisecond
	// keepAlive is how often an idle stream sends a comment.
	keepAlive = 15 * time.Second
	// maxFaults bounds the remembered last errors of instances.
	maxFaults = 4096
	// maxStreams bounds the open event streams: every frame the world
	// hands its summary to each, so a client opening streams without end
	// would slow the world down.
	maxStreams = 64
)

// streamWriteTimeout bounds each write to an event stream: a client that
// stops reading (a frozen tab, a stalled connection) is dropped after it,
// freeing its place among maxStreams. A variable for the tests.
var streamWriteTimeout = 10 * time.Second

// errTooManyStreams answers a stream past maxStreams.
var errTooManyStreams = &apiError{http.StatusServiceUnavailable, fmt.Sprintf("%d event streams are open already; close one first", maxStreams)}

// event is one server-sent event: its type and JSON data.
type event struct {
	kind string
	data []byte
}

// hub hands events from the driving goroutine to the streams. Publishing
// never blocks the world: a client that lags loses its oldest events and
// all but the latest frame summary.
type hub struct {
	mu     sync.Mutex
	subs   map[*sub]struct{}
	recent []event
	closed bool
	// active counts the subscribers, read without the lock by the world.
	active atomic.Int32
}

type sub struct {
	frame   []byte
	events  []event
	dropped int
	wake    chan struct{}
}

func newHub() *hub { return &hub{subs: make(map[*sub]struct{})} }

// subscribe returns a new subscriber, primed with the recent events; after
// close it fails with errClosed, and with maxStreams subscribers already
// with errTooManyStreams.
func (hb *hub) subscribe() (*sub, error) {
	hb.mu.Lock()
	defer hb.mu.Unlock()
	if hb.closed {
		return nil, errClosed
	}
	if len(hb.subs) >= maxStreams {
		return nil, errTooManyStreams
	}
	s := &sub{events: append([]event(nil), hb.recent...), wake: make(chan struct{}, 1)}
	s.wake <- struct{}{}
	hb.subs[s] = struct{}{}
	hb.active.Add(1)
	return s, nil
}

func (hb *hub) unsubscribe(s *sub) {
	hb.mu.Lock()
	defer hb.mu.Unlock()
	if _, ok := hb.subs[s]; ok {
		delete(hb.subs, s)
		hb.active.Add(-1)
	}
}

// publish sends an error or reload event to every stream and keeps it
// for the streams to come.
func (hb *hub) publish(e event) {
	hb.mu.Lock()
	defer hb.mu.Unlock()
	hb.recent = append(hb.recent, e)
	if len(hb.recent) > maxRecent {
		hb.recent = append(hb.recent[:0], hb.recent[len(hb.recent)-maxRecent:]...)
	}
	for s := range hb.subs {
		s.events = append(s.events, e)
		if len(s.events) > maxBacklog {
			s.dropped += len(s.events) - maxBacklog
			s.events = append(s.events[:0], s.events[len(s.events)-maxBacklog:]...)
		}
		notify(s.wake)
	}
}

// frame replaces every stream's pending frame summary.
func (hb *hub) frame(data []byte) {
	hb.mu.Lock()
	defer hb.mu.Unlock()
	for s := range hb.subs {
		s.frame = data
		notify(s.wake)
	}
}

// next takes what s has to send.
func (hb *hub) next(s *sub) (events []event, frame []byte, dropped int) {
	hb.mu.Lock()
	defer hb.mu.Unlock()
	events, frame, dropped = s.events, s.frame, s.dropped
	s.events, s.frame, s.dropped = nil, nil, 0
	return events, frame, dropped
}

func (hb *hub) close() {
	hb.mu.Lock()
	defer hb.mu.Unlock()
	hb.closed = true
}

func notify(c chan struct{}) {
	select {
	case c <- struct{}{}:
	default:
	}
}

// frameJSON is the "frame" event: the world's figures after a frame (or
// a pause, a resume, an edit), with each script's milliseconds in the
// last frame.
type frameJSON struct {
	worldJSON
	ScriptMS map[string]number `json:"scriptMs"`
}

// publishFrame sends the world's figures to the streams, when there are
// any: a world nobody watches pays one atomic load. Unless forced (a
// step, a pause, an edit), it does so at most once every frameEvery, the
// most a stream sends.
func (in *Inspector) publishFrame(force bool) {
	if in.hub.active.Load() == 0 {
		return
	}
	now := time.Now()
	if !force && now.Sub(in.published) < frameEvery {
		return
	}
	in.published = now
	hs := in.host.Stats()
	f := frameJSON{worldJSON: in.worldFrom(hs), ScriptMS: make(map[string]number, len(hs.Timing))}
	for _, s := range hs.Timing {
		f.ScriptMS[s.Script] = number(ms(s.Frame.Total))
	}
	data, err := json.Marshal(f)
	if err != nil {
		return
	}
	in.hub.frame(data)
}

// reloadJSON is the "reload" event: one hot reload, applied (the
// instances migrated) or refused (its error, with file:line).
type reloadJSON struct {
	Script    string  `json:"script"`
	File      string  `json:"file"`
	Instances int     `json:"instances"`
	MS        number  `json:"ms"`
	Frame     uint64  `json:"frame"`
	Error     *string `json:"error"`
}

// onReload streams a hot reload; on the driving goroutine.
func (in *Inspector) onReload(ri luabind.ReloadInfo) {
	r := reloadJSON{Script: ri.Script, File: ri.File, Instances: ri.Instances, MS: number(ms(ri.Duration)), Frame: in.rt.Frame()}
	if ri.Err != nil {
		msg := ri.Err.Error()
		r.Error = &msg
	}
	in.publish("reload", r)
}

// faultKey names an instance for its last error: its entity and script.
type faultKey struct {
	entity runtime.Handle
	script string
}

// errorJSON is the "error" event.
type errorJSON struct {
	Script   string `json:"script"`
	Entity   string `json:"entity,omitempty"`
	Callback string `json:"callback"`
	Frame    uint64 `json:"frame"`
	File     string `json:"file"`
	Line     int    `json:"line"`
	Message  string `json:"message"`
}

// onReport keeps an instance's last error and streams it; on the driving
// goroutine.
func (in *Inspector) onReport(err error) {
	var se *runtime.ScriptError
	if !errors.As(err, &se) {
		in.publish("error", errorJSON{Frame: in.rt.Frame(), Message: err.Error()})
		return
	}
	if se.Callback == "reload" {
		// A refused hot reload: its "reload" event says so.
		return
	}
	if !se.Entity.IsZero() {
		if len(in.faults) >= maxFaults {
			for k := range in.faults {
				if !in.rt.Alive(k.entity) {
					delete(in.faults, k)
				}
			}
			if len(in.faults) >= maxFaults {
				clear(in.faults)
			}
		}
		in.faults[faultKey{se.Entity, se.Script}] = se
	}
	e := errorJSON{Script: se.Script, Callback: se.Callback, Frame: se.Frame, File: se.File, Line: se.Line, Message: se.Message}
	if !se.Entity.IsZero() {
		e.Entity = se.Entity.String()
	}
	in.publish("error", e)
}

func (in *Inspector) publish(kind string, v any) {
	data, err := json.Marshal(v)
	if err != nil {
		return
	}
	in.hub.publish(event{kind, data})
}

// stream serves GET /api/stream: server-sent events "frame" (frameJSON,
// at most one per frameEvery), "error" (errorJSON), "reload" (reloadJSON) and
// "dropped" (how many events a lagging client lost). A new stream starts
// with the recent errors and reloads.
func (in *Inspector) stream(w http.ResponseWriter, r *http.Request) {
	if _, ok := w.(http.Flusher); !ok {
		fail(w, http.StatusInternalServerError, "this server cannot stream")
		return
	}
	s, err := in.hub.subscribe()
	if err != nil {
		answerError(w, err)
		return
	}
	defer in.hub.unsubscribe(s)
	rc := http.NewResponseController(w)
	// flush sends what was written; false when the client is gone or
	// stopped reading for streamWriteTimeout.
	flush := func() bool { return rc.Flush() == nil }
	deadline := func() { _ = rc.SetWriteDeadline(time.Now().Add(streamWriteTimeout)) }
	w.Header().Set("Content-Type", "text/event-stream")
	w.WriteHeader(http.StatusOK)
	deadline()
	fmt.Fprint(w, "retry: 1000\n\n")
	if !flush() {
		return
	}
	ping := time.NewTicker(keepAlive)
	defer ping.Stop()
	var lastFrame time.Time
	for {
		select {
		case <-s.wake:
		case <-ping.C:
			deadline()
			fmt.Fprint(w, ": ping\n\n")
			if !flush() {
				return
			}
			continue
		case <-r.Context().Done():
			return
		case <-in.closed:
			return
		}
		events, frame, dropped := in.hub.next(s)
		deadline()
		if dropped > 0 {
			fmt.Fprintf(w, "event: dropped\ndata: %d\n\n", dropped)
		}
		for _, e := range events {
			fmt.Fprintf(w, "event: %s\ndata: %s\n\n", e.kind, e.data)
		}
		if frame != nil {
			if wait := frameEvery - time.Since(lastFrame); wait > 0 {
				select {
				case <-time.After(wait):
				case <-r.Context().Done():
					return
				}
				// A newer summary may have come meanwhile.
				if newer := in.hub.takeFrame(s); newer != nil {
					frame = newer
				}
			}
			lastFrame = time.Now()
			deadline()
			fmt.Fprintf(w, "event: frame\ndata: %s\n\n", frame)
		}
		if !flush() {
			return
		}
	}
}

// takeFrame takes s's pending frame summary only, leaving its events.
func (hb *hub) takeFrame(s *sub) []byte {
	hb.mu.Lock()
	defer hb.mu.Unlock()
	f := s.frame
	s.frame = nil
	return f
}

func ms(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }
