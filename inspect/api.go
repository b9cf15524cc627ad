package inspect

import (
	"errors"
	"net/http"

	"github.com/luahost/luahost/luabind"
	"github.com/luahost/luahost/runtime"
)

// worldJSON is GET /api/world: where the world is.
type worldJSON struct {
	Frame     uint64 `json:"frame"`
	Time      number `json:"time"`
	DT        number `json:"dt"`
	Entities  int    `json:"entities"`
	Instances int    `json:"instances"`
	Paused    bool   `json:"paused"`
	ReadOnly  bool   `json:"readonly"`
	Errors    int    `json:"errors"`
	Reloads   int    `json:"reloads"`
	Scripts   int    `json:"scripts"`
	FrameMS   number `json:"frameMs"`
}

// world returns the world's figures; on the driving goroutine.
func (in *Inspector) world() worldJSON { return in.worldFrom(in.host.Stats()) }

// worldFrom is world with the host's statistics read already.
func (in *Inspector) worldFrom(hs luabind.Stats) worldJSON {
	rs := in.rt.Stats()
	return worldJSON{
		Frame:     in.rt.Frame(),
		Time:      number(in.rt.Time()),
		DT:        number(in.rt.DT()),
		Entities:  rs.Entities,
		Instances: rs.Instances,
		Paused:    in.paused,
		ReadOnly:  in.opts.ReadOnly,
		Errors:    rs.Errors,
		Reloads:   hs.Reloads,
		Scripts:   hs.Scripts,
		FrameMS:   number(ms(in.frameTime)),
	}
}

func (in *Inspector) getWorld(w http.ResponseWriter, r *http.Request) {
	in.do(w, r, func() (any, error) { return in.world(), nil })
}

// entityJSON is one entity of GET /api/entities (entities.go writes the
// list itself) and the head of GET /api/entities/{id}.
type entityJSON struct {
	ID       string    `json:"id"`
	Name     string    `json:"name"`
	State    string    `json:"state"`
	Position [3]number `json:"position"`
	Tags     []string  `json:"tags"`
	Scripts  []string  `json:"scripts"`
}

// detailJSON is GET /api/entities/{id}.
type detailJSON struct {
	entityJSON
	Rotation  [3]number      `json:"rotation"`
	Scale     [3]number      `json:"scale"`
	Instances []instanceJSON `json:"instances"`
}

// instanceJSON is one script instance of an entity.
type instanceJSON struct {
	Script string `json:"script"`
	// Self is a preview of the instance's self as JSON (at most
	// maxSelfValues keys and values; SelfOmitted tells when some were
	// left out), or null when it is not a Lua instance (SelfError says
	// why).
	Self        any     `json:"self"`
	SelfOmitted bool    `json:"selfOmitted,omitempty"`
	SelfError   string  `json:"selfError,omitempty"`
	Faulted     bool    `json:"faulted"`
	Error       *string `json:"error"`
	// At is where the last error happened, when known.
	At *faultJSON `json:"at,omitempty"`
}

// faultJSON locates an instance's last error.
type faultJSON struct {
	File     string `json:"file"`
	Line     int    `json:"line"`
	Callback string `json:"callback"`
	Frame    uint64 `json:"frame"`
}

func (in *Inspector) getEntity(w http.ResponseWriter, r *http.Request) {
	h, err := parseHandle(r.PathValue("id"))
	if err != nil {
		answerError(w, err)
		return
	}
	in.do(w, r, func() (any, error) { return in.detail(h) })
}

// detail returns the full view of entity h.
func (in *Inspector) detail(h runtime.Handle) (detailJSON, error) {
	row, ok := in.row(h, nil)
	if !ok {
		return detailJSON{}, unknownEntity(h)
	}
	e := entityJSON{ID: h.String(), Name: row.name, State: row.state.String(), Position: vec(row.pos), Tags: row.tags, Scripts: row.scripts}
	if e.Tags == nil {
		e.Tags = []string{}
	}
	if e.Scripts == nil {
		e.Scripts = []string{}
	}
	t, _ := in.rt.Transform(h)
	d := detailJSON{entityJSON: e, Rotation: vec(t.Rotation), Scale: vec(t.Scale), Instances: []instanceJSON{}}
	insts, _ := in.rt.Instances(h)
	for _, inst := range insts {
		if !inst.Live() || inst.Detached() {
			continue
		}
		d.Instances = append(d.Instances, in.instance(inst))
	}
	return d, nil
}

func unknownEntity(h runtime.Handle) error {
	return &apiError{http.StatusNotFound, "no entity " + h.String() + " (never spawned, or reaped)"}
}

// maxSelfValues bounds the keys and values of a self an answer shows.
const maxSelfValues = 2000

// instance returns the view of one live instance.
func (in *Inspector) instance(inst *runtime.Instance) instanceJSON {
	ij := instanceJSON{Script: inst.Script().Name(), Faulted: inst.Faulted()}
	// A preview, not a copy: the world's time a request takes is bounded
	// by what the answer holds, whatever the self holds.
	if self, omitted, err := in.host.SelfPreview(inst, maxSelfValues); err == nil {
		ij.Self, ij.SelfOmitted = jsonValue(self), omitted
	} else if _, isLua := inst.Script().(*luabind.Script); isLua {
		ij.SelfError = err.Error()
	}
	if se := in.faults[faultKey{inst.Entity(), ij.Script}]; se != nil {
		msg := se.Message
		ij.Error = &msg
		ij.At = &faultJSON{File: se.File, Line: se.Line, Callback: se.Callback, Frame: se.Frame}
	}
	return ij
}

// lookup returns the live instance of script on entity h: the only Lua
// instance when script is empty.
func (in *Inspector) lookup(h runtime.Handle, script string) (*runtime.Instance, error) {
	insts, err := in.rt.Instances(h)
	if err != nil {
		return nil, unknownEntity(h)
	}
	var found []*runtime.Instance
	for _, inst := range insts {
		if !inst.Live() || inst.Detached() {
			continue
		}
		name := inst.Script().Name()
		if _, isLua := inst.Script().(*luabind.Script); (script == "" && isLua) || name == script {
			found = append(found, inst)
		}
	}
	switch {
	case len(found) == 1:
		return found[0], nil
	case len(found) > 1:
		return nil, &apiError{http.StatusConflict, h.String() + " has several instances of " + scriptLabel(script) + ": name the script"}
	case script == "":
		return nil, &apiError{http.StatusNotFound, h.String() + " has no live Lua script instance"}
	}
	return nil, &apiError{http.StatusNotFound, h.String() + " has no live instance of script " + script}
}

func scriptLabel(script string) string {
	if script == "" {
		return "Lua scripts"
	}
	return script
}

// getBlackboard answers {"blackboard": {key: value}}.
func (in *Inspector) getBlackboard(w http.ResponseWriter, r *http.Request) {
	in.do(w, r, func() (any, error) {
		bb := in.rt.Blackboard()
		out := make(map[string]any, bb.Len())
		for _, k := range bb.Keys() {
			out[k] = jsonValue(bb.GetPlain(k))
		}
		return map[string]any{"blackboard": out}, nil
	})
}

// scriptJSON is one row of GET /api/scripts.
type scriptJSON struct {
	Script    string `json:"script"`
	Instances int    `json:"instances"`
	Calls     int64  `json:"calls"`
	Errors    int64  `json:"errors"`
	TotalMS   number `json:"totalMs"`
	MeanUS    number `json:"meanUs"`
	MaxMS     number `json:"maxMs"`
	// FrameMS and FrameCalls are the script's share of the last frame.
	FrameMS    number `json:"frameMs"`
	FrameCalls int64  `json:"frameCalls"`
	Exact      bool   `json:"exact"`
}

// getScripts answers the timing table: {"frame", "scripts": [...]}, in
// load order.
func (in *Inspector) getScripts(w http.ResponseWriter, r *http.Request) {
	in.do(w, r, func() (any, error) {
		st := in.host.Stats()
		rows := make([]scriptJSON, 0, len(st.Timing))
		for _, s := range st.Timing {
			n := 0
			if sc := in.host.Script(s.Script); sc != nil {
				n = len(in.rt.ScriptInstances(sc))
			}
			rows = append(rows, scriptJSON{
				Script: s.Script, Instances: n, Calls: s.Calls, Errors: s.Errors,
				TotalMS: number(ms(s.Total)), MeanUS: number(float64(s.Mean()) / 1e3), MaxMS: number(ms(s.Max)),
				FrameMS: number(ms(s.Frame.Total)), FrameCalls: s.Frame.Calls, Exact: s.Exact,
			})
		}
		return map[string]any{"frame": st.Frame, "scripts": rows}, nil
	})
}

// selfEdit is POST /api/entities/{id}/self: self[key] = value of the
// instance of script (the only Lua instance when empty); a null value
// removes the key.
type selfEdit struct {
	Script string `json:"script"`
	Key    string `json:"key"`
	Value  any    `json:"value"`
}

// postSelf sets one key of an instance's self and answers the instance.
func (in *Inspector) postSelf(w http.ResponseWriter, r *http.Request) {
	h, err := parseHandle(r.PathValue("id"))
	var edit selfEdit
	if err == nil {
		err = decode(r, &edit)
	}
	if err == nil && edit.Key == "" {
		err = badRequest("the edit needs a key: {\"script\", \"key\", \"value\"}")
	}
	var value any
	if err == nil {
		value, err = plainOf(edit.Value, "value")
	}
	if err != nil {
		answerError(w, err)
		return
	}
	in.do(w, r, func() (any, error) {
		inst, err := in.lookup(h, edit.Script)
		if err != nil {
			return nil, err
		}
		if err := in.host.SetSelf(inst, edit.Key, value); err != nil {
			return nil, conflict(err)
		}
		in.publishFrame(true)
		return in.instance(inst), nil
	})
}

// conflict answers an error of the world (the instance is gone, the
// value does not fit) as 409, one of the request as 400.
func conflict(err error) error {
	if errors.Is(err, runtime.ErrNotPlain) {
		return badRequest("%v", err)
	}
	return &apiError{http.StatusConflict, err.Error()}
}

// blackboardEdit is POST /api/blackboard: blackboard[key] = value; a null
// value removes the key.
type blackboardEdit struct {
	Key   string `json:"key"`
	Value any    `json:"value"`
}

func (in *Inspector) postBlackboard(w http.ResponseWriter, r *http.Request) {
	var edit blackboardEdit
	err := decode(r, &edit)
	if err == nil && edit.Key == "" {
		err = badRequest("the edit needs a key: {\"key\", \"value\"}")
	}
	var value any
	if err == nil {
		value, err = plainOf(edit.Value, "value")
	}
	if err != nil {
		answerError(w, err)
		return
	}
	in.do(w, r, func() (any, error) {
		in.rt.Blackboard().SetPlain(edit.Key, value)
		in.publishFrame(true)
		return map[string]any{"key": edit.Key, "value": jsonValue(value)}, nil
	})
}

// evalRequest is POST /api/eval.
type evalRequest struct {
	Entity string `json:"entity"`
	Script string `json:"script"`
	Code   string `json:"code"`
}

// evalJSON is the answer of POST /api/eval: what the snippet printed and
// returned, or its error ("console:LINE: ...") and line.
type evalJSON struct {
	Output string  `json:"output"`
	Result string  `json:"result"`
	Error  *string `json:"error"`
	Line   int     `json:"line,omitempty"`
}

func (in *Inspector) postEval(w http.ResponseWriter, r *http.Request) {
	var req evalRequest
	err := decode(r, &req)
	var h runtime.Handle
	if err == nil {
		h, err = parseHandle(req.Entity)
	}
	if err == nil && req.Code == "" {
		err = badRequest("the snippet is empty: {\"entity\", \"script\", \"code\"}")
	}
	if err != nil {
		answerError(w, err)
		return
	}
	in.do(w, r, func() (any, error) {
		inst, err := in.lookup(h, req.Script)
		if err != nil {
			return nil, err
		}
		ev, err := in.host.Eval(inst, req.Code)
		if err != nil {
			return nil, &apiError{http.StatusConflict, err.Error()}
		}
		out := evalJSON{Output: ev.Output, Result: ev.Result}
		if ev.Err != nil {
			msg := ev.Err.Message
			out.Error, out.Line = &msg, ev.Err.Line
		}
		in.publishFrame(true)
		return out, nil
	})
}

// errorCountJSON is one row of GET /api/errors.
type errorCountJSON struct {
	Script   string `json:"script"`
	Callback string `json:"callback"`
	Message  string `json:"message"`
	Count    int    `json:"count"`
	First    uint64 `json:"first"`
	Last     uint64 `json:"last"`
}

// getErrors answers the distinct errors since the inspector started, in
// the order they first happened: {"errors": [{script, callback, message,
// count, first, last}], "dropped": how many more distinct ones were not
// kept}.
func (in *Inspector) getErrors(w http.ResponseWriter, r *http.Request) {
	in.do(w, r, func() (any, error) {
		errs, dropped := in.errors.Distinct()
		rows := make([]errorCountJSON, 0, len(errs))
		for _, e := range errs {
			rows = append(rows, errorCountJSON{e.Script, e.Callback, e.Message, e.Count, e.First, e.Last})
		}
		return map[string]any{"errors": rows, "dropped": dropped}, nil
	})
}

// restartRequest is POST /api/entities/{id}/restart: the instance of
// script (the only Lua instance when empty).
type restartRequest struct {
	Script string `json:"script"`
}

// postRestart gives a faulted instance a fresh chance: its fault is
// cleared, and its onCreate runs again when that is what failed (else
// its callbacks run again from the next frame). An instance that is not
// faulted is a conflict.
func (in *Inspector) postRestart(w http.ResponseWriter, r *http.Request) {
	h, err := parseHandle(r.PathValue("id"))
	var req restartRequest
	if err == nil {
		err = decode(r, &req)
	}
	if err != nil {
		answerError(w, err)
		return
	}
	in.do(w, r, func() (any, error) {
		inst, err := in.lookup(h, req.Script)
		if err != nil {
			return nil, err
		}
		if !inst.Faulted() {
			return nil, &apiError{http.StatusConflict, inst.Script().Name() + " on " + h.String() + " is not faulted"}
		}
		in.rt.Retry(inst)
		delete(in.faults, faultKey{h, inst.Script().Name()})
		in.publishFrame(true)
		return in.instance(inst), nil
	})
}
