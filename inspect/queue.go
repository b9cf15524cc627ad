package inspect

import (
	"context"
	"net/http"
	"time"

	"github.com/luahost/luahost/runtime"
)

// maxQueue bounds the requests waiting for the world: past it, a request
// is answered 503 at once.
const maxQueue = 256

// request is one API call waiting to be served by the driving goroutine.
type request struct {
	ctx context.Context
	// run does the work between frames; it returns the answer's body or
	// an *apiError.
	run func() (any, error)
	// key is the request URI of a read, whose answer identical reads
	// served before the world changes share; "" for a change.
	key  string
	body any
	err  error
	// step marks a step request: its answer waits for the next frame.
	step bool
	done chan struct{}
}

// apiError is a refused request: its status and message.
type apiError struct {
	status int
	msg    string
}

func (e *apiError) Error() string { return e.msg }

var errClosed = &apiError{http.StatusServiceUnavailable, "the world is closed"}

// do queues fn to run between frames, waits for its answer and writes it:
// 200 and fn's result as JSON, or the error's status and message. A
// client that goes away stops waiting; fn then does not run.
//
// A read made while the debugger holds the world paused inside a callback
// is served there, where the world waits (no frame ends to serve it);
// a change waits for the frame to end.
func (in *Inspector) do(w http.ResponseWriter, r *http.Request, fn func() (any, error)) {
	if r.Method == http.MethodGet {
		in.onWorld(w, r, fn)
		return
	}
	in.queued(w, r, fn)
}

// queued is do served between frames only.
func (in *Inspector) queued(w http.ResponseWriter, r *http.Request, fn func() (any, error)) {
	req := &request{ctx: r.Context(), run: fn, done: make(chan struct{})}
	if r.Method == http.MethodGet {
		req.key = r.URL.RequestURI()
	}
	in.doRequest(w, req)
}

func (in *Inspector) doRequest(w http.ResponseWriter, req *request) {
	if err := in.enqueue(req); err != nil {
		answerError(w, err)
		return
	}
	select {
	case <-req.done:
		if req.err != nil {
			answerError(w, req.err)
			return
		}
		answer(w, http.StatusOK, req.body)
	case <-req.ctx.Done():
	case <-in.closed:
		answerError(w, errClosed)
	}
}

func (in *Inspector) enqueue(req *request) error {
	in.mu.Lock()
	defer in.mu.Unlock()
	select {
	case <-in.closed:
		return errClosed
	default:
	}
	if len(in.queue) >= maxQueue {
		return &apiError{http.StatusServiceUnavailable, "too many requests wait for the world"}
	}
	in.queue = append(in.queue, req)
	select {
	case in.wake <- struct{}{}:
	default:
	}
	return nil
}

// take removes and returns the queued requests.
func (in *Inspector) take() []*request {
	in.mu.Lock()
	defer in.mu.Unlock()
	q := in.queue
	in.queue = nil
	return q
}

// Drain serves the queued requests, on the calling goroutine, which must
// be the one driving the world, between frames (inside a frame it does
// nothing). While the world is paused it blocks, serving requests as they
// come, until a resume, a step (the caller should then run a frame) or
// Close.
func (in *Inspector) Drain() {
	if in.rt.Stepping() {
		return
	}
	for {
		in.serveSome()
		if !in.paused || len(in.steps) > 0 || in.rt.Closed() {
			return
		}
		select {
		case <-in.wake:
		case <-in.closed:
			return
		}
	}
}

// serveSome serves the queued requests, oldest first: all of them while
// the world is paused, else those that fit in a slice of the frame's time
// (at least one), leaving the rest queued for the next frame's end, so
// that however many clients poll, serving them slows the frames by a
// bounded share.
func (in *Inspector) serveSome() {
	q := in.take()
	start := time.Now()
	slice := max(serveMin, in.frameTime/serveSlice)
	for i, req := range q {
		if i > 0 && !in.paused && time.Since(start) > slice {
			in.requeue(q[i:])
			return
		}
		in.serve(req)
	}
}

// requeue puts requests back at the front of the queue, and wakes a loop
// that sleeps between frames to serve them in its idle time.
func (in *Inspector) requeue(reqs []*request) {
	in.mu.Lock()
	defer in.mu.Unlock()
	in.queue = append(reqs, in.queue...)
	select {
	case in.wake <- struct{}{}:
	default:
	}
}

// serve runs one request between frames and answers it, unless its
// client went away. A step request's answer waits for its frame. A read
// identical to one served since the world last changed gets its answer;
// a change forgets the answers.
func (in *Inspector) serve(req *request) {
	if req.ctx.Err() != nil {
		return
	}
	if body, ok := in.answers[req.key]; ok && req.key != "" {
		req.body = body
		close(req.done)
		return
	}
	req.body, req.err = in.run(req)
	switch {
	case req.key == "":
		clear(in.answers)
	case req.err == nil:
		if in.answers == nil {
			in.answers = make(map[string]any)
		}
		in.answers[req.key] = req.body
	}
	if req.step && req.err == nil {
		in.steps = append(in.steps, req)
		return
	}
	close(req.done)
}

// run calls req.run; a panic in it (a bug) becomes a 500 answer instead
// of taking the world down.
func (in *Inspector) run(req *request) (body any, err error) {
	defer func() {
		if v := recover(); v != nil {
			body, err = nil, &apiError{http.StatusInternalServerError, runtime.NewPanicError(v).Error()}
		}
	}()
	return req.run()
}

// beforeStep starts the frame's clock.
func (in *Inspector) beforeStep() { in.frameStart = time.Now() }

// afterStep ends the frame: its time is taken, the oldest step request
// is answered, a frame summary goes to the streams, and requests are
// served (blocking while paused).
func (in *Inspector) afterStep() {
	in.frameTime = time.Since(in.frameStart)
	clear(in.answers)
	stepped := len(in.steps) > 0
	if stepped {
		req := in.steps[0]
		in.steps = in.steps[1:]
		req.body = in.world()
		close(req.done)
	}
	in.publishFrame(stepped)
	in.Drain()
}

// postPause pauses the world at the end of the frame under way.
func (in *Inspector) postPause(w http.ResponseWriter, r *http.Request) {
	in.do(w, r, func() (any, error) {
		in.paused = true
		in.publishFrame(true)
		return in.world(), nil
	})
}

// postResume lets the world run again.
func (in *Inspector) postResume(w http.ResponseWriter, r *http.Request) {
	in.do(w, r, func() (any, error) {
		in.paused = false
		in.publishFrame(true)
		return in.world(), nil
	})
}

// postStep runs one frame of a paused world and answers after it ran,
// with the world as /api/world gives it.
func (in *Inspector) postStep(w http.ResponseWriter, r *http.Request) {
	req := &request{ctx: r.Context(), step: true, done: make(chan struct{})}
	req.run = func() (any, error) {
		if !in.paused {
			return nil, &apiError{http.StatusConflict, "step runs one frame of a paused world: pause it first"}
		}
		return nil, nil
	}
	in.doRequest(w, req)
}

// FrameTime returns the wall time of the last frame, from the start of
// the inspector's BeforeStep hook to the start of its AfterStep hook: a
// pause is not counted. On the driving goroutine.
func (in *Inspector) FrameTime() time.Duration { return in.frameTime }
