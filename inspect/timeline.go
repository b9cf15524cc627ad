package inspect

import (
	"net/http"

	"github.com/luahost/luahost/luabind"
	"github.com/luahost/luahost/runtime"
)

// A Timeline is a world's recent past, which the inspector moves the
// world back in (package rewind keeps one). Its methods are called on the
// goroutine that drives the world, between frames.
type Timeline interface {
	// Range returns the earliest and the latest frame the world can be
	// moved back to.
	Range() (first, last uint64)
	// Rewind builds the world as it was after frame in a new host, which
	// the world goes on in from then on, and closes the old one; or
	// leaves the world as it is and says why not.
	Rewind(frame uint64) (*luabind.Host, error)
}

// timelineJSON is GET /api/timeline.
type timelineJSON struct {
	First uint64 `json:"first"`
	Last  uint64 `json:"last"`
	Frame uint64 `json:"frame"`
}

func (in *Inspector) timeline(w http.ResponseWriter) Timeline {
	if in.opts.Timeline == nil {
		fail(w, http.StatusConflict, "this world keeps no history: run it with --rewind FRAMES")
	}
	return in.opts.Timeline
}

func (in *Inspector) getTimeline(w http.ResponseWriter, r *http.Request) {
	tl := in.timeline(w)
	if tl == nil {
		return
	}
	in.onWorld(w, r, func() (any, error) {
		first, last := tl.Range()
		return timelineJSON{First: first, Last: last, Frame: in.rt.Frame()}, nil
	})
}

// rewindJSON is what POST /api/rewind takes: a frame, or how many frames
// back, and optionally an instance whose callback to break at once the
// world is back.
type rewindJSON struct {
	Frame *uint64 `json:"frame"`
	Back  *uint64 `json:"back"`
	Break *struct {
		Entity   string `json:"entity"`
		Script   string `json:"script"`
		Callback string `json:"callback"`
	} `json:"break"`
}

// postRewind moves the world back to {"frame": N}, or {"back": N} frames
// before the current one, and answers the world's figures there. The
// world is left paused, to be seen, stepped or resumed. With "break":
// {"entity", "script", "callback"}, the debugger pauses once where that
// instance's callback starts, when the world runs on. A world paused in
// the debugger first finishes its frame without pausing again.
func (in *Inspector) postRewind(w http.ResponseWriter, r *http.Request) {
	tl := in.timeline(w)
	if tl == nil {
		return
	}
	var body rewindJSON
	if err := decode(r, &body); err != nil {
		answerError(w, err)
		return
	}
	if (body.Frame == nil) == (body.Back == nil) {
		fail(w, http.StatusBadRequest, "give either frame or back")
		return
	}
	var at runtime.Handle
	if body.Break != nil {
		if in.opts.Debugger == nil {
			fail(w, http.StatusConflict, "this world has no debugger to break in")
			return
		}
		h, err := parseHandle(body.Break.Entity)
		if err != nil {
			answerError(w, err)
			return
		}
		at = h
	}
	d := in.opts.Debugger
	if d != nil && in.debugPaused.Load() {
		// Until the rewind has run, or its client has gone away.
		d.Hold(true)
		defer d.Hold(false)
		_ = d.Continue()
	}
	req := &request{ctx: r.Context(), done: make(chan struct{})}
	req.run = func() (any, error) {
		cur := in.rt.Frame()
		frame := cur
		switch {
		case body.Frame != nil:
			frame = *body.Frame
		case *body.Back > cur:
			frame = 0
		default:
			frame = cur - *body.Back
		}
		var bp *luabind.Breakpoint
		if body.Break != nil {
			s := in.host.Script(body.Break.Script)
			if s == nil {
				return nil, &apiError{http.StatusNotFound, "no script " + body.Break.Script}
			}
			line, ok := s.CallbackLine(body.Break.Callback)
			if !ok {
				return nil, &apiError{http.StatusNotFound, "script " + body.Break.Script + " has no callback " + body.Break.Callback}
			}
			bp = &luabind.Breakpoint{File: s.File(), Line: line, Entity: at, Once: true}
		}
		if err := in.rewind(tl, frame); err != nil {
			return nil, err
		}
		if bp != nil {
			bps := []luabind.Breakpoint{*bp}
			for _, old := range d.Breakpoints() {
				if absolute(old.File) == absolute(bp.File) && old.Line != bp.Line {
					bps = append(bps, old)
				}
			}
			d.SetBreakpoints(bp.File, bps)
		}
		return in.world(), nil
	}
	in.doRequest(w, req)
}

// rewind moves the world to frame through tl and goes on inspecting it,
// paused.
func (in *Inspector) rewind(tl Timeline, frame uint64) error {
	in.moving = true
	host, err := tl.Rewind(frame)
	in.moving = false
	if err != nil {
		return &apiError{http.StatusConflict, err.Error()}
	}
	in.bind(host)
	in.paused = true
	in.publishFrame(true)
	return nil
}
