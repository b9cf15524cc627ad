package dap

import (
	"errors"

	godap "github.com/google/go-dap"
)

// The custom request "rewind" moves the world back. The protocol's own
// stepBack and reverseContinue step a program back through its
// instructions, which a world replayed from a keyframe does not do; an
// editor sends rewind as a custom request instead (VS Code's
// session.customRequest("rewind", {back: 30}), nvim-dap's
// session:request("rewind", {back = 30})). The world goes back to the
// frame and runs on from it, the debugger pausing at the first line a
// script runs: a stopped event with the reason "pause" follows the
// response.

// RewindArguments are the arguments of a rewind: Frame, the frame to go
// back to, or Back, how many frames before the current one.
type RewindArguments struct {
	Frame *uint64 `json:"frame,omitempty"`
	Back  uint64  `json:"back,omitempty"`
}

// RewindRequest is the custom request "rewind".
type RewindRequest struct {
	godap.Request
	Arguments RewindArguments `json:"arguments"`
}

// RewindResponse answers a rewind with the frame the world went back to.
type RewindResponse struct {
	godap.Response
	Body RewindResponseBody `json:"body"`
}

// RewindResponseBody is the body of a RewindResponse.
type RewindResponseBody struct {
	Frame uint64 `json:"frame"`
}

// A Rewinder moves the world back to frame, or, when frame is nil, back
// frames before the current one, and returns the frame it went to. It is
// called from the client's goroutine.
type Rewinder func(frame *uint64, back uint64) (uint64, error)

// NewCodec returns a decoder of the protocol's messages and of the
// custom rewind request and response.
func NewCodec() *godap.Codec {
	c := godap.NewCodec()
	_ = c.RegisterRequest("rewind", func() godap.Message { return &RewindRequest{} }, func() godap.Message { return &RewindResponse{} })
	return c
}

// OnRewind makes the server answer rewind requests with fn; without it
// they fail, saying that the world keeps no history.
func (s *Server) OnRewind(fn Rewinder) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.rewind = fn
}

var errNoHistory = errors.New("this world keeps no history: run it with --inspect ADDR --rewind FRAMES")

func (c *session) rewind(m *RewindRequest) {
	c.s.mu.Lock()
	fn := c.s.rewind
	c.s.mu.Unlock()
	if fn == nil {
		c.fail(m.Request, errNoHistory)
		return
	}
	frame, err := fn(m.Arguments.Frame, m.Arguments.Back)
	if err != nil {
		c.fail(m.Request, err)
		return
	}
	c.send(&RewindResponse{Response: c.response(m.Request), Body: RewindResponseBody{Frame: frame}})
}
