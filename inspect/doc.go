// Package inspect serves a live inspector of a luabind Host's world: one
// embedded web page, and the JSON API it reads, which a script
// can read with curl too.
//
// An embedder makes an [Inspector] with [New] between frames and mounts it
// on its own mux:
//
//	in, err := inspect.New(host, inspect.Options{})
//	mux.Handle("/inspect/", http.StripPrefix("/inspect", in))
//
// Requests are queued and served by the goroutine that drives the world:
// at the end of every Step, and whenever that goroutine calls
// [Inspector.Drain] (a loop that sleeps between frames selects on
// [Inspector.Pending]). While the world is paused from the page, Step
// blocks at its end, serving requests, until a resume or a step;
// [Inspector.Close] releases it.
//
// The API (answers are JSON; a refusal is 4xx {"error": "message"}):
//
//	GET  /api/world                 {"frame", "time", "dt", "entities", "instances", "paused", "readonly", "errors", "reloads", "scripts", "frameMs"}
//	GET  /api/entities?tag=&script=&name=&state=
//	                                {"entities": [{"id": "entity(3:1)", "name", "state", "position": [x, y, z], "tags", "scripts"}]}
//	GET  /api/entities/{id}         the entity, "rotation", "scale", and "instances": [{"script", "self", "faulted", "error", "at": {"file", "line", "callback", "frame"}}]
//	GET  /api/blackboard            {"blackboard": {key: value}}
//	GET  /api/scripts               {"frame", "scripts": [{"script", "instances", "calls", "errors", "totalMs", "meanUs", "maxMs", "frameMs", "frameCalls", "exact"}]}
//	GET  /api/stream                server-sent events: "frame" (the world's figures and "scriptMs": each script's ms in the last frame),
//	                                "error" ({"script", "entity", "callback", "frame", "file", "line", "message"}),
//	                                "reload" ({"script", "file", "instances", "ms", "frame", "error"}), "debug", "dropped"
//	POST /api/pause, /api/resume    the world's figures
//	POST /api/step                  one frame of a paused world; answers after it ran
//	POST /api/entities/{id}/self    {"script", "key", "value"}: self[key] = value (null removes it)
//	POST /api/blackboard            {"key", "value"}
//	POST /api/eval                  {"entity", "script", "code"} -> {"output", "result", "error", "line"}
//	GET  /api/debug                 {"paused", "stop": {"reason", "path", "line", "error"}, "stack": [{"name", "path", "line"}], "breakpoints": [{"path", "line"}]}
//	GET  /api/debug/source?script=&path=
//	                                {"script", "path", "source"}: a loaded script's source, as loaded
//	GET  /api/debug/frame?frame=N   {"scopes": [{"name", "variables": [{"name", "value", "type", "ref"}]}]} of a paused frame
//	GET  /api/debug/variables?ref=N {"variables": [...]}: a table's fields
//	POST /api/debug/breakpoints     {"path", "lines": [...]}: the breakpoints of one script
//	POST /api/debug/{action}        continue, next, stepIn, stepOut, pause
//	GET  /api/timeline              {"first", "last", "frame"}: the frames a rewind reaches
//	POST /api/rewind                {"frame"} or {"back"}, optionally "break": {"entity", "script", "callback"};
//	                                the world's figures there, paused
//
// The debugger endpoints drive Options.Debugger, the same debugger an
// editor may drive over DAP; the stream then sends a "debug" event,
// {"paused"}, at every pause and resume. The timeline endpoints need
// Options.Timeline. Both answer 409 without them. [Inspector.Rewind] moves
// the world back from Go (an editor's DAP rewind request does so).
//
// Values are JSON: a table whose keys are 1..n is an array, any other an
// object; entities are their id; vectors {"x", "y", "z"}; NaN and the
// infinities the strings "nan", "inf" and "-inf". In an edit, objects and
// arrays become tables. "script" may be left out where the entity has one
// Lua script instance. The page and its files come from the binary: no
// request reaches the file system, and a console snippet's require finds
// only modules its script loaded already.
package inspect
