// Package dap serves a luabind.Debugger over the Debug Adapter Protocol,
// the protocol of VS Code, Neovim's nvim-dap and JetBrains IDEs, on TCP:
// a designer attaches an editor to a running world, sets breakpoints by
// file and line, steps, reads the stack, locals, upvalues and self, and
// evaluates expressions in a paused frame. The messages are those of
// github.com/google/go-dap.
//
// One client at a time; the world is one thread. Supported requests:
// initialize, attach and launch (the same here), setBreakpoints (with
// condition and hitCondition), setExceptionBreakpoints (filter "error":
// every script error), configurationDone, threads, stackTrace, scopes,
// variables, evaluate, pause, continue, next, stepIn, stepOut and
// disconnect, and the custom request rewind (rewind.go). Events:
// initialized, stopped, continued (when another client of the same
// debugger, the inspector's page, resumed the world), output,
// terminated, exited.
package dap

import (
	"bufio"
	"errors"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"sync"
	"sync/atomic"

	godap "github.com/google/go-dap"

	"github.com/luahost/luahost/luabind"
)

// ThreadID is the one thread a world is: every script runs on the
// goroutine that drives it.
const ThreadID = 1

// A Server accepts DAP clients for one Host's debugger.
type Server struct {
	d     *luabind.Debugger
	ln    net.Listener
	ready chan struct{}
	once  sync.Once

	mu sync.Mutex
	// cur is the connected client's session, nil when none is.
	cur  *session
	done chan struct{}
	// rewind answers the custom rewind request (rewind.go).
	rewind Rewinder
	// resuming is set when the client's own continue or step asks the
	// world to resume, and taken by the resume it asked for: any other
	// resume (the inspector's page) is told to the client with a
	// continued event.
	resuming atomic.Bool
}

// Listen starts a server on addr ("127.0.0.1:4711"; port 0 picks one)
// for d. It serves until Close.
func Listen(addr string, d *luabind.Debugger) (*Server, error) {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, fmt.Errorf("debugger: %w", err)
	}
	s := &Server{d: d, ln: ln, ready: make(chan struct{}), done: make(chan struct{})}
	d.Observe(s.resumed)
	go s.accept()
	go s.forwardStops()
	return s, nil
}

// resumed tells the client of a resume it did not ask for: another
// client of the same debugger (the inspector's page) continued or
// stepped.
func (s *Server) resumed(_ luabind.Stop, paused bool) {
	if paused || s.resuming.CompareAndSwap(true, false) {
		return
	}
	s.mu.Lock()
	cur := s.cur
	s.mu.Unlock()
	if cur != nil {
		cur.send(&godap.ContinuedEvent{Event: cur.event("continued"), Body: godap.ContinuedEventBody{ThreadId: ThreadID, AllThreadsContinued: true}})
	}
}

// Addr returns the address the server listens on.
func (s *Server) Addr() net.Addr { return s.ln.Addr() }

// Ready returns a channel closed once a client has sent
// configurationDone: its breakpoints are set, and the world may start.
func (s *Server) Ready() <-chan struct{} { return s.ready }

// Close stops listening, tells the connected client the world ended
// (exited with code, then terminated), and detaches the debugger.
func (s *Server) Close(code int) error {
	err := s.ln.Close()
	s.mu.Lock()
	cur := s.cur
	s.mu.Unlock()
	if cur != nil {
		cur.send(&godap.ExitedEvent{Event: cur.event("exited"), Body: godap.ExitedEventBody{ExitCode: code}})
		cur.send(&godap.TerminatedEvent{Event: cur.event("terminated")})
		cur.conn.Close()
	}
	close(s.done)
	s.d.Detach()
	return err
}

func (s *Server) accept() {
	for {
		conn, err := s.ln.Accept()
		if err != nil {
			return
		}
		s.mu.Lock()
		busy := s.cur != nil
		if !busy {
			s.cur = &session{s: s, conn: conn, w: bufio.NewWriter(conn)}
		}
		cur := s.cur
		s.mu.Unlock()
		if busy {
			conn.Close()
			continue
		}
		go cur.serve()
	}
}

// forwardStops turns the debugger's pauses into stopped events.
func (s *Server) forwardStops() {
	for {
		select {
		case <-s.done:
			return
		case stop := <-s.d.Stops():
			s.mu.Lock()
			cur := s.cur
			s.mu.Unlock()
			if cur != nil {
				cur.stopped(stop)
			}
		}
	}
}

// session is one connected client.
type session struct {
	s    *Server
	conn net.Conn
	wmu  sync.Mutex
	w    *bufio.Writer
	seq  int
}

func (c *session) serve() {
	defer func() {
		c.conn.Close()
		c.s.mu.Lock()
		if c.s.cur == c {
			c.s.cur = nil
		}
		c.s.mu.Unlock()
		c.s.d.Detach()
	}()
	r := bufio.NewReader(c.conn)
	codec := NewCodec()
	for {
		raw, err := godap.ReadBaseMessage(r)
		if err != nil {
			return
		}
		msg, err := codec.DecodeMessage(raw)
		if err != nil {
			var fe *godap.DecodeProtocolMessageFieldError
			if errors.As(err, &fe) {
				// An unknown request: refused, the session goes on.
				c.send(&godap.ErrorResponse{Response: godap.Response{
					ProtocolMessage: godap.ProtocolMessage{Seq: c.next(), Type: "response"},
					RequestSeq:      fe.Seq, Command: fe.SubType, Message: "unsupported request"}})
				continue
			}
			return
		}
		if c.handle(msg) {
			return
		}
	}
}

func (c *session) next() int {
	c.seq++
	return c.seq
}

func (c *session) send(m godap.Message) {
	c.wmu.Lock()
	defer c.wmu.Unlock()
	if m.GetSeq() == 0 {
		setSeq(m, c.next())
	}
	if err := godap.WriteProtocolMessage(c.w, m); err == nil {
		c.w.Flush()
	}
}

func (c *session) event(name string) godap.Event {
	return godap.Event{ProtocolMessage: godap.ProtocolMessage{Type: "event"}, Event: name}
}

func (c *session) response(req godap.Request) godap.Response {
	return godap.Response{ProtocolMessage: godap.ProtocolMessage{Type: "response"}, RequestSeq: req.Seq, Command: req.Command, Success: true}
}

func (c *session) fail(req godap.Request, err error) {
	resp := c.response(req)
	resp.Success = false
	resp.Message = err.Error()
	c.send(&godap.ErrorResponse{Response: resp, Body: godap.ErrorResponseBody{Error: &godap.ErrorMessage{Format: err.Error(), ShowUser: true}}})
}

func (c *session) stopped(stop luabind.Stop) {
	if stop.Reason == "exception" {
		c.send(&godap.OutputEvent{Event: c.event("output"), Body: godap.OutputEventBody{Category: "stderr", Output: stop.Error + "\n"}})
	}
	c.send(&godap.StoppedEvent{Event: c.event("stopped"), Body: godap.StoppedEventBody{
		Reason: stop.Reason, ThreadId: ThreadID, AllThreadsStopped: true, Text: stop.Error, Description: stop.Error}})
}

// setSeq numbers an outgoing message.
func setSeq(m godap.Message, seq int) {
	switch x := m.(type) {
	case godap.ResponseMessage:
		x.GetResponse().Seq = seq
	case godap.EventMessage:
		x.GetEvent().Seq = seq
	}
}

var errNoWorld = errors.New("the world is not paused")

// handle answers one request; it reports whether the session ends.
func (c *session) handle(msg godap.Message) (end bool) {
	d := c.s.d
	switch m := msg.(type) {
	case *godap.InitializeRequest:
		c.send(&godap.InitializeResponse{Response: c.response(m.Request), Body: godap.Capabilities{
			SupportsConfigurationDoneRequest:  true,
			SupportsConditionalBreakpoints:    true,
			SupportsHitConditionalBreakpoints: true,
			SupportsEvaluateForHovers:         true,
			ExceptionBreakpointFilters: []godap.ExceptionBreakpointsFilter{
				{Filter: "error", Label: "Script errors", Description: "Pause at every error a script raises"},
			},
		}})
		c.send(&godap.InitializedEvent{Event: c.event("initialized")})
	case *godap.AttachRequest:
		c.send(&godap.AttachResponse{Response: c.response(m.Request)})
	case *godap.LaunchRequest:
		c.send(&godap.LaunchResponse{Response: c.response(m.Request)})
	case *godap.SetBreakpointsRequest:
		path := m.Arguments.Source.Path
		bps := make([]luabind.Breakpoint, len(m.Arguments.Breakpoints))
		for i, b := range m.Arguments.Breakpoints {
			bps[i] = luabind.Breakpoint{Line: b.Line, Condition: b.Condition, HitCondition: b.HitCondition}
		}
		// A path that names no file keeps its breakpoints (the script
		// may be written later) but says they are not verified, and why.
		verified, msg := true, ""
		if info, err := os.Stat(path); err != nil || !info.Mode().IsRegular() {
			verified, msg = false, "no script at "+path
		}
		lines := d.SetBreakpoints(path, bps)
		out := make([]godap.Breakpoint, len(lines))
		for i, l := range lines {
			out[i] = godap.Breakpoint{Id: i + 1, Verified: verified, Message: msg, Line: l, Source: &godap.Source{Path: path, Name: filepath.Base(path)}}
		}
		c.send(&godap.SetBreakpointsResponse{Response: c.response(m.Request), Body: godap.SetBreakpointsResponseBody{Breakpoints: out}})
	case *godap.SetExceptionBreakpointsRequest:
		on := false
		for _, f := range m.Arguments.Filters {
			on = on || f == "error"
		}
		d.SetBreakOnError(on)
		c.send(&godap.SetExceptionBreakpointsResponse{Response: c.response(m.Request)})
	case *godap.ConfigurationDoneRequest:
		c.send(&godap.ConfigurationDoneResponse{Response: c.response(m.Request)})
		c.s.once.Do(func() { close(c.s.ready) })
	case *godap.ThreadsRequest:
		c.send(&godap.ThreadsResponse{Response: c.response(m.Request), Body: godap.ThreadsResponseBody{Threads: []godap.Thread{{Id: ThreadID, Name: "world"}}}})
	case *godap.StackTraceRequest:
		frames, err := d.Stack()
		if err != nil {
			c.fail(m.Request, err)
			break
		}
		out := make([]godap.StackFrame, len(frames))
		for i, f := range frames {
			path := f.File
			if abs, err := filepath.Abs(path); err == nil {
				path = abs
			}
			out[i] = godap.StackFrame{Id: i + 1, Name: f.Name, Line: f.Line, Column: 1, Source: &godap.Source{Name: filepath.Base(f.File), Path: path}}
		}
		c.send(&godap.StackTraceResponse{Response: c.response(m.Request), Body: godap.StackTraceResponseBody{StackFrames: out, TotalFrames: len(out)}})
	case *godap.ScopesRequest:
		scopes, err := d.Scopes(m.Arguments.FrameId - 1)
		if err != nil {
			c.fail(m.Request, err)
			break
		}
		out := make([]godap.Scope, len(scopes))
		for i, sc := range scopes {
			out[i] = godap.Scope{Name: sc.Name, VariablesReference: sc.Ref, PresentationHint: hint(sc.Name)}
		}
		c.send(&godap.ScopesResponse{Response: c.response(m.Request), Body: godap.ScopesResponseBody{Scopes: out}})
	case *godap.VariablesRequest:
		vars, err := d.Variables(m.Arguments.VariablesReference)
		if err != nil {
			c.fail(m.Request, err)
			break
		}
		out := make([]godap.Variable, len(vars))
		for i, v := range vars {
			out[i] = godap.Variable{Name: v.Name, Value: v.Value, Type: v.Type, VariablesReference: v.Ref}
		}
		c.send(&godap.VariablesResponse{Response: c.response(m.Request), Body: godap.VariablesResponseBody{Variables: out}})
	case *godap.EvaluateRequest:
		frame := max(m.Arguments.FrameId-1, 0)
		// Watches and hovers only read; what the designer types in the
		// debug console may assign.
		v, err := d.Evaluate(frame, m.Arguments.Expression, m.Arguments.Context == "repl")
		if err != nil {
			c.fail(m.Request, err)
			break
		}
		c.send(&godap.EvaluateResponse{Response: c.response(m.Request), Body: godap.EvaluateResponseBody{Result: v.Value, Type: v.Type, VariablesReference: v.Ref}})
	case *godap.PauseRequest:
		d.Pause()
		c.send(&godap.PauseResponse{Response: c.response(m.Request)})
	case *godap.ContinueRequest:
		c.resume(m.Request, d.Continue, func(r godap.Response) godap.Message {
			return &godap.ContinueResponse{Response: r, Body: godap.ContinueResponseBody{AllThreadsContinued: true}}
		})
	case *godap.NextRequest:
		c.resume(m.Request, d.Next, func(r godap.Response) godap.Message { return &godap.NextResponse{Response: r} })
	case *godap.StepInRequest:
		c.resume(m.Request, d.StepIn, func(r godap.Response) godap.Message { return &godap.StepInResponse{Response: r} })
	case *godap.StepOutRequest:
		c.resume(m.Request, d.StepOut, func(r godap.Response) godap.Message { return &godap.StepOutResponse{Response: r} })
	case *RewindRequest:
		c.rewind(m)
	case *godap.DisconnectRequest:
		d.Detach()
		c.send(&godap.DisconnectResponse{Response: c.response(m.Request)})
		return true
	default:
		if req, ok := msg.(godap.RequestMessage); ok {
			c.fail(*req.GetRequest(), fmt.Errorf("unsupported request %q", req.GetRequest().Command))
		}
	}
	return false
}

// resume answers a continue or a step: the response goes before the
// world runs on, so that it comes before the next stopped event.
func (c *session) resume(req godap.Request, do func() error, reply func(godap.Response) godap.Message) {
	if !c.s.d.Paused() {
		c.fail(req, errNoWorld)
		return
	}
	c.send(reply(c.response(req)))
	// The debugger tells the observers of this resume before do
	// returns; the flag is taken there, not cleared here, since by the
	// time do returns the world may have paused and been resumed by
	// another.
	c.s.resuming.Store(true)
	if err := do(); err != nil {
		c.s.resuming.Store(false)
		c.send(&godap.OutputEvent{Event: c.event("output"), Body: godap.OutputEventBody{Category: "console", Output: err.Error() + "\n"}})
	}
}

func hint(scope string) string {
	if scope == "Locals" {
		return "locals"
	}
	return ""
}
