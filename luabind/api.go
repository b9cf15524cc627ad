package luabind

import (
	"slices"

	lua "github.com/yuin/gopher-lua"
)

// The designer's Lua API as data. API lists every member a script can
// reach that the host provides: the fields and callbacks of the script
// table, ctx and its members, entity values, vectors, the event value of
// handlers, the tables ctx.spawn and ctx.query take, and the globals the
// host adds to the sandbox's standard library. The runtime's bindings are
// checked against it member by member (every bound function is listed,
// with the arity it accepts, and nothing else is), the editor definitions
// (WriteTypes) are generated from it, and a linter reads it to know what
// a script may call.

// APIKind says how a script reaches a member.
type APIKind int

const (
	// APIField is a value read as owner.name.
	APIField APIKind = iota
	// APIFunction is called as owner.name(...) (a global when the owner
	// is "").
	APIFunction
	// APIMethod is called as owner:name(...).
	APIMethod
	// APICallback is a function field of the script table that the host
	// calls.
	APICallback
)

// APIParam is a parameter or a result of a member.
type APIParam struct {
	// Name is the parameter's name in the docs.
	Name string
	// Type is its type as a LuaCATS annotation ("number",
	// "luahost.Entity", "string|nil").
	Type string
	// Optional is true for a parameter that may be left out (it and every
	// parameter after it).
	Optional bool
}

// APIMember is one member of the designer's API.
type APIMember struct {
	// Owner is the LuaCATS class the member belongs to, without the
	// "luahost." prefix: "Script", "Ctx", "Entity", "Vec3", "Event",
	// "SpawnSpec", "QuerySpec"; "" for a global.
	Owner string
	// Name is the member's name.
	Name string
	// Kind says how it is reached.
	Kind APIKind
	// Type is a field's LuaCATS type.
	Type string
	// Params are a function's parameters (a method's without self, a
	// callback's with it); Variadic marks a last parameter that repeats.
	Params   []APIParam
	Variadic bool
	// Returns are its results.
	Returns []APIParam
	// Overload is another LuaCATS signature the function accepts
	// ("fun(self: luahost.Entity, v: luahost.Vec3|number[])"), or "".
	Overload string
	// Doc is one line saying what it does.
	Doc string
}

// Required returns how many parameters a call must pass: those before the
// first optional one.
func (m APIMember) Required() int {
	for i, p := range m.Params {
		if p.Optional {
			return i
		}
	}
	if m.Variadic {
		return len(m.Params) - 1
	}
	return len(m.Params)
}

// API returns the designer's API, owner by owner, members in the order
// the docs give them. The slice is a copy.
func API() []APIMember { return slices.Clone(api) }

// APIMembers returns the members of one owner ("Ctx", "Entity"...; ""
// for the globals).
func APIMembers(owner string) []APIMember {
	var out []APIMember
	for _, m := range api {
		if m.Owner == owner {
			out = append(out, m)
		}
	}
	return out
}

// Shorthands for the table below.
func param(name, typ string) APIParam    { return APIParam{Name: name, Type: typ} }
func optional(name, typ string) APIParam { return APIParam{Name: name, Type: typ, Optional: true} }
func params(ps ...APIParam) []APIParam   { return ps }

const (
	tEntity = "luahost.Entity"
	tVec    = "luahost.Vec3"
	tCtx    = "luahost.Ctx"
	tXYZ    = "luahost.Vec3|number[]|{x: number, y: number, z: number}"
	tPlain  = "any"
	tSelf   = "table"
)

var api = []APIMember{
	// The script table.
	{Owner: "Script", Name: "name", Kind: APIField, Type: "string", Doc: "The script's label in ctx.log lines; default: the file's base name."},
	{Owner: "Script", Name: "priority", Kind: APIField, Type: "integer", Doc: "Order within a frame: lower runs earlier, equal priorities in attach order; default 0."},
	{Owner: "Script", Name: "properties", Kind: APIField, Type: "table<string, any>", Doc: "Defaults deep-copied into every new instance's self, overridden by the attach's props."},
	{Owner: "Script", Name: "onCreate", Kind: APICallback, Params: params(param("self", tSelf), param("ctx", tCtx)), Doc: "Runs once, when the script is attached; if it fails the instance gets no callback at all."},
	{Owner: "Script", Name: "onUpdate", Kind: APICallback, Params: params(param("self", tSelf), param("ctx", tCtx), param("dt", "number")), Doc: "Runs every frame while the entity is active, with the frame's dt in seconds."},
	{Owner: "Script", Name: "onDestroy", Kind: APICallback, Params: params(param("self", tSelf), param("ctx", tCtx)), Doc: "Runs once when the instance ends: detached, its entity settled after a kill, or the host shutting down."},
	{Owner: "Script", Name: "onReload", Kind: APICallback, Params: params(param("self", tSelf), param("old", tSelf), param("ctx", tCtx)), Doc: "Runs after a hot reload, old being a copy of the previous self."},
	{Owner: "Script", Name: "onRestore", Kind: APICallback, Params: params(param("self", tSelf), param("ctx", tCtx)), Doc: "Runs when a saved world is continued, instead of onCreate: rebuild what the script cached at module level."},
	{Owner: "Script", Name: "onExport", Kind: APICallback, Params: params(param("self", tSelf), param("ctx", tCtx)), Doc: "Runs before the entity leaves for another world."},
	{Owner: "Script", Name: "onImport", Kind: APICallback, Params: params(param("self", tSelf), param("ctx", tCtx)), Doc: "Runs after the entity arrived from another world."},
	{Owner: "Script", Name: "events", Kind: APIField, Type: "table<string, fun(self: table, ctx: luahost.Ctx, data: any, ev: luahost.Event): any>", Doc: "Event handlers: event name to function(self, ctx, data, ev)."},

	// ctx.
	{Owner: "Ctx", Name: "entity", Kind: APIField, Type: tEntity, Doc: "The entity this instance is attached to (read-only)."},
	{Owner: "Ctx", Name: "frame", Kind: APIField, Type: "integer", Doc: "The current frame number: 1 in the first frame, 0 during setup."},
	{Owner: "Ctx", Name: "time", Kind: APIField, Type: "number", Doc: "Simulated seconds: the sum of dt over the frames so far, this one included."},
	{Owner: "Ctx", Name: "dt", Kind: APIField, Type: "number", Doc: "This frame's dt in seconds (also the third argument of onUpdate)."},
	{Owner: "Ctx", Name: "blackboard", Kind: APIField, Type: "table<string, any>", Doc: "The blackboard shared by every script: plain data, copied in and out."},
	{Owner: "Ctx", Name: "spawn", Kind: APIFunction, Params: params(optional("spec", "luahost.SpawnSpec")), Returns: params(param("entity", tEntity)), Doc: "Creates an entity, pending until this frame's flush, with its scripts attached in order."},
	{Owner: "Ctx", Name: "find", Kind: APIFunction, Params: params(param("name", "string")), Returns: params(param("entity", tEntity+"|nil")), Doc: "Returns the entity with that scene name, or nil."},
	{Owner: "Ctx", Name: "findAll", Kind: APIFunction, Params: params(param("name", "string")), Returns: params(param("entities", tEntity+"[]")), Doc: "Returns the active entities with that scene name, by entity index."},
	{Owner: "Ctx", Name: "query", Kind: APIFunction, Params: params(param("filters", "luahost.QuerySpec")), Returns: params(param("entities", tEntity+"[]")), Doc: "Returns the active entities matching every filter, by distance from near or else by entity index."},
	{Owner: "Ctx", Name: "emit", Kind: APIFunction, Params: params(param("event", "string"), optional("data", tPlain), optional("mask", "integer")), Returns: params(param("delivered", "boolean")), Doc: "Dispatches an event synchronously to every observer; false when one stopped it."},
	{Owner: "Ctx", Name: "broadcast", Kind: APIFunction, Params: params(param("event", "string"), optional("data", tPlain)), Doc: "Sends an event to the whole world, delivered at the start of the next frame."},
	{Owner: "Ctx", Name: "detach", Kind: APIFunction, Doc: "Detaches this instance; its onDestroy runs at the frame's end."},
	{Owner: "Ctx", Name: "log", Kind: APIFunction, Params: params(optional("...", "any")), Variadic: true, Doc: "Like print, but one line to the host log, after the script's name and the entity."},
	{Owner: "Ctx", Name: "after", Kind: APIFunction, Params: params(param("secs", "number"), param("fn", "string"), optional("data", tPlain)), Returns: params(param("id", "integer")), Doc: "Calls the script table's function fn(self, ctx, data) once, secs simulated seconds from now."},
	{Owner: "Ctx", Name: "every", Kind: APIFunction, Params: params(param("secs", "number"), param("fn", "string"), optional("data", tPlain)), Returns: params(param("id", "integer")), Doc: "Calls the script table's function fn(self, ctx, data) every secs simulated seconds until cancelled."},
	{Owner: "Ctx", Name: "cancel", Kind: APIFunction, Params: params(param("id", "integer")), Returns: params(param("cancelled", "boolean")), Doc: "Cancels a timer of this instance; false when there is no such timer."},

	// Entity values.
	{Owner: "Entity", Name: "id", Kind: APIMethod, Returns: params(param("id", "string")), Doc: `The handle as a string, "entity(3:1)": a table key for entities.`},
	{Owner: "Entity", Name: "name", Kind: APIMethod, Returns: params(param("name", "string|nil")), Doc: "The entity's scene name, or nil."},
	{Owner: "Entity", Name: "alive", Kind: APIMethod, Returns: params(param("alive", "boolean")), Doc: "False once the entity was reaped (a stale handle)."},
	{Owner: "Entity", Name: "state", Kind: APIMethod, Returns: params(param("state", `"pending"|"active"|"dying"|"dead"`)), Doc: `The entity's lifecycle state; "dead" for a stale handle.`},
	{Owner: "Entity", Name: "position", Kind: APIMethod, Returns: params(param("x", "number"), param("y", "number"), param("z", "number")), Doc: "The position committed at the last flush."},
	{Owner: "Entity", Name: "setPosition", Kind: APIMethod, Params: params(param("x", "number"), param("y", "number"), param("z", "number")), Overload: "fun(self: luahost.Entity, v: " + tXYZ + ")", Doc: "Writes the position; the frame's last write is committed at its flush."},
	{Owner: "Entity", Name: "rotation", Kind: APIMethod, Returns: params(param("x", "number"), param("y", "number"), param("z", "number")), Doc: "The rotation committed at the last flush."},
	{Owner: "Entity", Name: "setRotation", Kind: APIMethod, Params: params(param("x", "number"), param("y", "number"), param("z", "number")), Overload: "fun(self: luahost.Entity, v: " + tXYZ + ")", Doc: "Writes the rotation; the frame's last write is committed at its flush."},
	{Owner: "Entity", Name: "scale", Kind: APIMethod, Returns: params(param("x", "number"), param("y", "number"), param("z", "number")), Doc: "The scale committed at the last flush."},
	{Owner: "Entity", Name: "setScale", Kind: APIMethod, Params: params(param("x", "number"), param("y", "number"), param("z", "number")), Overload: "fun(self: luahost.Entity, v: " + tXYZ + ")", Doc: "Writes the scale; the frame's last write is committed at its flush."},
	{Owner: "Entity", Name: "attach", Kind: APIMethod, Params: params(param("script", "string"), optional("props", "table<string, any>")), Doc: "Attaches a script to the entity; its onCreate runs now."},
	{Owner: "Entity", Name: "detach", Kind: APIMethod, Params: params(param("script", "string")), Returns: params(param("n", "integer")), Doc: "Detaches that script's instances from the entity and returns how many."},
	{Owner: "Entity", Name: "kill", Kind: APIMethod, Returns: params(param("killed", "boolean")), Doc: "Judges the entity dead (settled at this frame's flush); false when it was already dying or gone."},
	{Owner: "Entity", Name: "revive", Kind: APIMethod, Returns: params(param("revived", "boolean")), Doc: "Returns a dying entity to active before the flush; false when it was not dying."},
	{Owner: "Entity", Name: "send", Kind: APIMethod, Params: params(param("event", "string"), optional("data", tPlain), optional("mask", "integer")), Returns: params(param("delivered", "boolean")), Doc: "Like ctx.emit, but only to this entity's instances."},
	{Owner: "Entity", Name: "tag", Kind: APIMethod, Params: params(param("tag", "string")), Doc: "Gives the entity the tag (nothing happens if it has it)."},
	{Owner: "Entity", Name: "untag", Kind: APIMethod, Params: params(param("tag", "string")), Doc: "Takes the tag from the entity (nothing happens if it does not have it)."},
	{Owner: "Entity", Name: "hasTag", Kind: APIMethod, Params: params(param("tag", "string")), Returns: params(param("has", "boolean")), Doc: "Reports whether the entity has the tag."},
	{Owner: "Entity", Name: "tags", Kind: APIMethod, Returns: params(param("tags", "string[]")), Doc: "The entity's tags, sorted."},
	{Owner: "Entity", Name: "zone", Kind: APIMethod, Returns: params(param("zone", "integer|nil")), Doc: "The number of the zone the entity is in (0 in a world of one zone), or nil once it is gone."},

	// Vectors.
	{Owner: "Vec3", Name: "x", Kind: APIField, Type: "number", Doc: "The x component."},
	{Owner: "Vec3", Name: "y", Kind: APIField, Type: "number", Doc: "The y component."},
	{Owner: "Vec3", Name: "z", Kind: APIField, Type: "number", Doc: "The z component."},
	{Owner: "Vec3", Name: "length", Kind: APIMethod, Returns: params(param("length", "number")), Doc: "The vector's length."},
	{Owner: "Vec3", Name: "normalized", Kind: APIMethod, Returns: params(param("v", tVec)), Doc: "The vector scaled to length 1; the zero vector stays zero."},
	{Owner: "Vec3", Name: "dot", Kind: APIMethod, Params: params(param("v", tXYZ)), Returns: params(param("dot", "number")), Doc: "The dot product."},
	{Owner: "Vec3", Name: "cross", Kind: APIMethod, Params: params(param("v", tXYZ)), Returns: params(param("v", tVec)), Doc: "The cross product."},
	{Owner: "Vec3", Name: "distance", Kind: APIMethod, Params: params(param("v", tXYZ)), Returns: params(param("distance", "number")), Doc: "The length of v minus this vector."},
	{Owner: "Vec3", Name: "lerp", Kind: APIMethod, Params: params(param("v", tXYZ), param("t", "number")), Returns: params(param("v", tVec)), Doc: "This vector plus (v minus this vector) times t."},
	{Owner: "Vec3", Name: "unpack", Kind: APIMethod, Returns: params(param("x", "number"), param("y", "number"), param("z", "number")), Doc: "The components x, y, z."},

	// The ev argument of event handlers.
	{Owner: "Event", Name: "name", Kind: APIField, Type: "string", Doc: "The event's name."},
	{Owner: "Event", Name: "mask", Kind: APIField, Type: "integer", Doc: "The dispatch's mask (-1 unless given)."},
	{Owner: "Event", Name: "last", Kind: APIField, Type: "any", Doc: "What the previous handler returned, or the event's data for the first one."},
	{Owner: "Event", Name: "stop", Kind: APIMethod, Doc: "Stops the dispatch: no later observer gets the event, and emit returns false."},

	// ctx.spawn's spec.
	{Owner: "SpawnSpec", Name: "name", Kind: APIField, Type: "string", Doc: "The entity's scene name, for ctx.find and e:name()."},
	{Owner: "SpawnSpec", Name: "position", Kind: APIField, Type: tXYZ, Doc: "Its initial position; missing components are 0."},
	{Owner: "SpawnSpec", Name: "rotation", Kind: APIField, Type: tXYZ, Doc: "Its initial rotation; missing components are 0."},
	{Owner: "SpawnSpec", Name: "scale", Kind: APIField, Type: tXYZ, Doc: "Its initial scale; 1, 1, 1 when absent."},
	{Owner: "SpawnSpec", Name: "tags", Kind: APIField, Type: "string[]", Doc: "Its tags."},
	{Owner: "SpawnSpec", Name: "scripts", Kind: APIField, Type: "(string|{script: string, props?: table<string, any>})[]", Doc: "Script names, or {script=, props=} tables, attached in order."},

	// ctx.query's filters.
	{Owner: "QuerySpec", Name: "tag", Kind: APIField, Type: "string", Doc: "Keeps entities with that tag."},
	{Owner: "QuerySpec", Name: "script", Kind: APIField, Type: "string", Doc: "Keeps entities with an instance of that script."},
	{Owner: "QuerySpec", Name: "name", Kind: APIField, Type: "string", Doc: "Keeps entities with that scene name."},
	{Owner: "QuerySpec", Name: "near", Kind: APIField, Type: tEntity + "|" + tXYZ, Doc: "Sorts by distance from the entity or the point."},
	{Owner: "QuerySpec", Name: "radius", Kind: APIField, Type: "number", Doc: "With near: keeps entities at most this far away."},
	{Owner: "QuerySpec", Name: "limit", Kind: APIField, Type: "integer", Doc: "Keeps the first entities of the sorted result."},

	// Globals the host adds to the standard library.
	{Owner: "", Name: "vec3", Kind: APIFunction, Params: params(optional("x", "number"), optional("y", "number"), optional("z", "number")), Returns: params(param("v", tVec)), Overload: "fun(v: " + tXYZ + "): luahost.Vec3", Doc: "Makes a vector (missing numbers are 0), or one of a vector or a table {x, y, z}."},
	{Owner: "", Name: "print", Kind: APIFunction, Params: params(optional("...", "any")), Variadic: true, Doc: "Writes one line to the host's output, the arguments tostring'd and tab-separated."},
	{Owner: "", Name: "require", Kind: APIFunction, Params: params(param("name", "string")), Returns: params(param("module", "any")), Doc: `Loads a module of the script directory once per state: "lib.vector" is lib/vector.lua or lib/vector/init.lua.`},
}

// LibraryMembers returns, for every global table a script starts with
// (math, string, table, os, coroutine, debug, package...), the sorted
// names of its members in the sandbox: what a linter checks math.floor
// and os.exit against.
func (h *Host) LibraryMembers() map[string][]string {
	L := h.newSandbox()
	defer L.Close()
	st := &state{host: h, script: &Script{host: h, name: "globals"}, L: L}
	st.bind()
	out := map[string][]string{}
	L.G.Global.ForEach(func(k, v lua.LValue) {
		t, ok := v.(*lua.LTable)
		name, isName := k.(lua.LString)
		if !ok || !isName || t == L.G.Global {
			return
		}
		var members []string
		t.ForEach(func(mk, _ lua.LValue) {
			if s, ok := mk.(lua.LString); ok {
				members = append(members, string(s))
			}
		})
		slices.Sort(members)
		out[string(name)] = members
	})
	return out
}
