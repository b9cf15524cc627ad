package inspect

import (
	"context"
	"errors"
	"fmt"
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
	if err := in.checkHeld(tl, body); err != nil {
		answerError(w, err)
		return
	}
	in.doRequest(w, in.rewindRequest(r.Context(), tl, body, at, false))
}

// target returns the frame body asks for, the current one being cur.
func (body rewindJSON) target(cur uint64) uint64 {
	switch {
	case body.Frame != nil:
		return *body.Frame
	case *body.Back > cur:
		return 0
	}
	return cur - *body.Back
}

// checkHeld refuses, while the world is paused in the debugger, a rewind
// to a frame the timeline does not hold, before the paused frame is let
// go for it. (A running world's rewind is checked where it runs.)
func (in *Inspector) checkHeld(tl Timeline, body rewindJSON) error {
	d := in.opts.Debugger
	if d == nil || !in.debugPaused.Load() {
		return nil
	}
	var err error
	_ = d.WhilePaused(func() {
		first, last := tl.Range()
		// The frame under way ends before the rewind: it will be held.
		cur := in.rt.Frame()
		if f := body.target(cur); f < first || f > max(last, cur) {
			err = &apiError{http.StatusConflict, fmt.Sprintf("rewind to frame %d: frame not held (frames %d to %d are)", f, first, max(last, cur))}
		}
	})
	return err
}

// rewindRequest is the request that moves the world back as body says,
// on the driving goroutine, leaving it paused there, or with run set
// running on with the debugger pausing at the first line a script runs.
// A world paused in the debugger is let go to finish its frame, without
// pausing again until the rewind has run or the request's client has
// gone away.
func (in *Inspector) rewindRequest(ctx context.Context, tl Timeline, body rewindJSON, at runtime.Handle, run bool) *request {
	d := in.opts.Debugger
	if d != nil && in.debugPaused.Load() {
		d.Hold(true)
		context.AfterFunc(ctx, func() { d.Hold(false) })
		_ = d.Continue()
	}
	req := &request{ctx: ctx, done: make(chan struct{})}
	req.run = func() (any, error) {
		if d != nil {
			defer d.Hold(false)
		}
		frame := body.target(in.rt.Frame())
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
		if run {
			if d != nil {
				d.Pause()
			}
			in.paused = false
			in.publishFrame(true)
		}
		return in.world(), nil
	}
	return req
}

// Rewind moves the world back to frame, or, when frame is nil, back
// frames before the current one, as POST /api/rewind does, and returns
// the frame it moved to. Unlike the page's rewind, the world runs on from
// there at once, and the debugger (Options.Debugger) pauses it at the
// first line a script runs: an editor's way back. It waits for the
// world's goroutine, or for ctx; it is safe for concurrent use.
func (in *Inspector) Rewind(ctx context.Context, frame *uint64, back uint64) (uint64, error) {
	if in.opts.Timeline == nil {
		return 0, errors.New("this world keeps no history: run it with --rewind FRAMES")
	}
	if in.opts.ReadOnly {
		return 0, errors.New("the inspector is read-only: rewinds are off")
	}
	body := rewindJSON{Frame: frame}
	if frame == nil {
		body.Back = &back
	}
	if err := in.checkHeld(in.opts.Timeline, body); err != nil {
		return 0, err
	}
	req := in.rewindRequest(ctx, in.opts.Timeline, body, runtime.Handle{}, true)
	if err := in.enqueue(req); err != nil {
		return 0, err
	}
	select {
	case <-req.done:
		if req.err != nil {
			return 0, req.err
		}
		return req.body.(worldJSON).Frame, nil
	case <-ctx.Done():
		return 0, ctx.Err()
	case <-in.closed:
		return 0, errClosed
	}
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
