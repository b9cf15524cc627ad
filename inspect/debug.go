package inspect

import (
	"net/http"
	"path/filepath"
	"strconv"

	"github.com/luahost/luahost/luabind"
)

// The page's debugger panel drives the same luabind.Debugger an editor
// may drive over DAP: one set of breakpoints, one pause. Its endpoints
// call the debugger from the HTTP side (its methods are safe for
// concurrent use and carried out where the world waits), so that they
// answer while the world is paused inside a callback, when no request is
// served between frames.

// stopJSON is where the world is paused.
type stopJSON struct {
	Reason string `json:"reason"`
	// Path is the script's absolute path, as breakpoints and sources
	// name it.
	Path  string `json:"path"`
	Line  int    `json:"line"`
	Error string `json:"error,omitempty"`
}

// stackFrameJSON is one frame of the paused stack, innermost first.
type stackFrameJSON struct {
	Name string `json:"name"`
	Path string `json:"path"`
	Line int    `json:"line"`
}

// breakpointJSON is one breakpoint.
type breakpointJSON struct {
	Path string `json:"path"`
	Line int    `json:"line"`
}

// debugJSON is GET /api/debug.
type debugJSON struct {
	Paused      bool             `json:"paused"`
	Stop        *stopJSON        `json:"stop"`
	Stack       []stackFrameJSON `json:"stack"`
	Breakpoints []breakpointJSON `json:"breakpoints"`
}

// absolute returns file's absolute path, the key breakpoints and sources
// share.
func absolute(file string) string {
	if a, err := filepath.Abs(file); err == nil {
		return a
	}
	return filepath.Clean(file)
}

// debugger returns the debugger, or answers 409 and returns nil.
func (in *Inspector) debugger(w http.ResponseWriter) *luabind.Debugger {
	if in.opts.Debugger == nil {
		fail(w, http.StatusConflict, "this world has no debugger")
	}
	return in.opts.Debugger
}

// debugState reads the debugger's state: the stop and the stack when the
// world is paused, and the breakpoints.
func (in *Inspector) debugState(d *luabind.Debugger) debugJSON {
	out := debugJSON{Stack: []stackFrameJSON{}, Breakpoints: []breakpointJSON{}}
	if in.debugPaused.Load() {
		if stop, err := d.Where(); err == nil {
			out.Paused = true
			out.Stop = &stopJSON{Reason: stop.Reason, Path: absolute(stop.File), Line: stop.Line, Error: stop.Error}
			frames, _ := d.Stack()
			for _, f := range frames {
				out.Stack = append(out.Stack, stackFrameJSON{Name: f.Name, Path: absolute(f.File), Line: f.Line})
			}
		}
	}
	for _, bp := range d.Breakpoints() {
		out.Breakpoints = append(out.Breakpoints, breakpointJSON{Path: absolute(bp.File), Line: bp.Line})
	}
	return out
}

func (in *Inspector) getDebug(w http.ResponseWriter, r *http.Request) {
	if d := in.debugger(w); d != nil {
		answer(w, http.StatusOK, in.debugState(d))
	}
}

// onDebug hears of the debugger's pauses and resumes (on the driving
// goroutine) and tells the streams: a "debug" event, {"paused"}.
func (in *Inspector) onDebug(_ luabind.Stop, paused bool) {
	in.debugPaused.Store(paused)
	in.publish("debug", struct {
		Paused bool `json:"paused"`
	}{paused})
}

// onWorld runs fn where the world can be read: inside the debugger's
// pause while the world waits there, else between frames.
func (in *Inspector) onWorld(w http.ResponseWriter, r *http.Request, fn func() (any, error)) {
	if d := in.opts.Debugger; d != nil && in.debugPaused.Load() {
		var body any
		var err error
		if d.WhilePaused(func() { body, err = in.run(&request{run: fn}) }) == nil {
			if err != nil {
				answerError(w, err)
				return
			}
			answer(w, http.StatusOK, body)
			return
		}
	}
	in.queued(w, r, fn)
}

// sourceJSON is GET /api/debug/source: a loaded script's source.
type sourceJSON struct {
	Script string `json:"script"`
	Path   string `json:"path"`
	Source string `json:"source"`
}

// getSource answers the source of the script named by ?script=, or of
// the one loaded from ?path=: only loaded scripts, as they were loaded,
// so that no request reaches the file system.
func (in *Inspector) getSource(w http.ResponseWriter, r *http.Request) {
	if in.debugger(w) == nil {
		return
	}
	name, path := r.URL.Query().Get("script"), r.URL.Query().Get("path")
	in.onWorld(w, r, func() (any, error) {
		for _, s := range in.host.Scripts() {
			if s.Name() == name || path != "" && absolute(s.File()) == path {
				return sourceJSON{Script: s.Name(), Path: absolute(s.File()), Source: s.Source()}, nil
			}
		}
		return nil, &apiError{http.StatusNotFound, "no script loaded as " + strconv.Quote(name+path)}
	})
}

// scopeJSON is one scope of a paused frame, with its variables.
type scopeJSON struct {
	Name      string         `json:"name"`
	Variables []variableJSON `json:"variables"`
}

// variableJSON is one value; Ref, when not 0, lists its fields through
// GET /api/debug/variables?ref=.
type variableJSON struct {
	Name  string `json:"name"`
	Value string `json:"value"`
	Type  string `json:"type"`
	Ref   int    `json:"ref,omitempty"`
}

func variablesJSON(vars []luabind.Variable) []variableJSON {
	out := make([]variableJSON, len(vars))
	for i, v := range vars {
		out[i] = variableJSON{Name: v.Name, Value: v.Value, Type: v.Type, Ref: v.Ref}
	}
	return out
}

// notPaused is the answer to an inspection of a running world.
var notPaused = &apiError{http.StatusConflict, "the world is not paused in the debugger"}

// getFrame answers the scopes of frame ?frame= (0 is the innermost) of
// the paused stack: locals, upvalues and self, each with its variables.
func (in *Inspector) getFrame(w http.ResponseWriter, r *http.Request) {
	d := in.debugger(w)
	if d == nil {
		return
	}
	n, err := strconv.Atoi(r.URL.Query().Get("frame"))
	if err != nil || n < 0 {
		fail(w, http.StatusBadRequest, "frame must be a frame's number, 0 for the innermost")
		return
	}
	scopes, err := d.Scopes(n)
	if err != nil {
		answerError(w, debugError(err))
		return
	}
	out := struct {
		Scopes []scopeJSON `json:"scopes"`
	}{[]scopeJSON{}}
	for _, sc := range scopes {
		vars, err := d.Variables(sc.Ref)
		if err != nil {
			answerError(w, debugError(err))
			return
		}
		out.Scopes = append(out.Scopes, scopeJSON{Name: sc.Name, Variables: variablesJSON(vars)})
	}
	answer(w, http.StatusOK, out)
}

// getVariables answers the fields of the value ?ref= of the pause.
func (in *Inspector) getVariables(w http.ResponseWriter, r *http.Request) {
	d := in.debugger(w)
	if d == nil {
		return
	}
	ref, err := strconv.Atoi(r.URL.Query().Get("ref"))
	if err != nil {
		fail(w, http.StatusBadRequest, "ref must be a variable's ref")
		return
	}
	vars, err := d.Variables(ref)
	if err != nil {
		answerError(w, debugError(err))
		return
	}
	answer(w, http.StatusOK, struct {
		Variables []variableJSON `json:"variables"`
	}{variablesJSON(vars)})
}

// debugError maps a debugger's error to an answer.
func debugError(err error) error {
	if err == luabind.ErrNotPaused {
		return notPaused
	}
	return &apiError{http.StatusBadRequest, err.Error()}
}

// postBreakpoints replaces the breakpoints of one script:
// {"path", "lines": [...]}, and answers the debugger's state. An editor
// attached over DAP sets a file's breakpoints the same way, so the last
// of the two to set a file's wins.
func (in *Inspector) postBreakpoints(w http.ResponseWriter, r *http.Request) {
	d := in.debugger(w)
	if d == nil {
		return
	}
	var body struct {
		Path  string `json:"path"`
		Lines []int  `json:"lines"`
	}
	if err := decode(r, &body); err != nil {
		answerError(w, err)
		return
	}
	if body.Path == "" {
		fail(w, http.StatusBadRequest, "path must name a script's file (as GET /api/debug/source gives it)")
		return
	}
	bps := make([]luabind.Breakpoint, 0, len(body.Lines))
	for _, line := range body.Lines {
		if line < 1 {
			fail(w, http.StatusBadRequest, "lines are 1-based, got %d", line)
			return
		}
		bps = append(bps, luabind.Breakpoint{Line: line})
	}
	d.SetBreakpoints(body.Path, bps)
	answer(w, http.StatusOK, in.debugState(d))
}

// postDebug carries out continue, next, stepIn, stepOut or pause, and
// answers the debugger's state. The world's next pause comes as a "debug"
// event on the stream.
func (in *Inspector) postDebug(w http.ResponseWriter, r *http.Request) {
	d := in.debugger(w)
	if d == nil {
		return
	}
	var err error
	switch a := r.PathValue("action"); a {
	case "continue":
		err = d.Continue()
	case "next":
		err = d.Next()
	case "stepIn":
		err = d.StepIn()
	case "stepOut":
		err = d.StepOut()
	case "pause":
		d.Pause()
	default:
		fail(w, http.StatusNotFound, "no debugger action %s (continue, next, stepIn, stepOut, pause)", strconv.Quote(a))
		return
	}
	if err != nil {
		answerError(w, debugError(err))
		return
	}
	answer(w, http.StatusOK, in.debugState(d))
}
