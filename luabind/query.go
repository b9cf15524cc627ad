package luabind

import (
	"fmt"
	"math"
	"unicode/utf8"

	lua "github.com/yuin/gopher-lua"

	"github.com/luahost/luahost/luabind/internal/luaerr"
	"github.com/luahost/luahost/runtime"
)

// Tags and queries, backed by the runtime's indexes.

// Bounds of the tags and names scripts give entities. The runtime's
// indexes keep them as Go strings, which no memory limit or ceiling
// measures (they count Lua data): without a bound, a script tagging its
// entity with a fresh 16 MiB string every frame grew the process by
// gigabytes unseen.
const (
	maxTagSize  = 256
	maxTags     = 64
	maxNameSize = 256
)

// checkTag returns argument n as a tag: a non-empty string.
func checkTag(L *lua.LState, n int) string {
	s, ok := L.Get(n).(lua.LString)
	if !ok || s == "" {
		L.ArgError(n, "want a tag: a non-empty string, not "+L.Get(n).Type().String())
	}
	return string(s)
}

// notText is the refusal of a name, tag or timer name that is not valid
// UTF-8: such strings are refused where they enter, so that a snapshot or
// a handoff, which write them as text, carries them exactly.
func notText(what string) string { return what + " must be valid UTF-8 text" }

// e:tag(tag) gives the entity a tag.
func (st *state) entityTag(L *lua.LState) int {
	h := st.live(L)
	tag := checkTag(L, 2)
	rt := st.host.rt
	switch {
	case len(tag) > maxTagSize:
		L.ArgError(2, fmt.Sprintf("tag longer than %d bytes", maxTagSize))
	case !utf8.ValidString(tag):
		L.ArgError(2, notText("the tag"))
	}
	if !rt.HasTag(h, tag) {
		if tags, _ := rt.Tags(h); len(tags) >= maxTags {
			L.ArgError(2, fmt.Sprintf("the entity has %d tags, the most scripts may give one", maxTags))
		}
	}
	_ = rt.Tag(h, tag)
	return 0
}

// e:untag(tag) takes a tag from the entity.
func (st *state) entityUntag(L *lua.LState) int {
	h := st.live(L)
	_ = st.host.rt.Untag(h, checkTag(L, 2))
	return 0
}

// e:hasTag(tag) reports whether the entity has the tag.
func (st *state) entityHasTag(L *lua.LState) int {
	h := st.live(L)
	L.Push(lua.LBool(st.host.rt.HasTag(h, checkTag(L, 2))))
	return 1
}

// e:tags() returns the entity's tags as a sorted array.
func (st *state) entityTags(L *lua.LState) int {
	tags, _ := st.host.rt.Tags(st.live(L))
	t := L.CreateTable(len(tags), 0)
	for _, tag := range tags {
		t.Append(lua.LString(tag))
	}
	L.Push(t)
	return 1
}

// readTags reads a spawn spec's tags: an array of non-empty strings.
func readTags(v lua.LValue) ([]string, error) {
	list, ok := v.(*lua.LTable)
	if !ok {
		return nil, fmt.Errorf("spec.tags must be a list of strings, not %s", v.Type())
	}
	var tags []string
	for i := 1; i <= list.Len(); i++ {
		s, ok := list.RawGetInt(i).(lua.LString)
		switch {
		case !ok || s == "":
			return nil, fmt.Errorf("spec.tags[%d] must be a non-empty string", i)
		case len(s) > maxTagSize:
			return nil, fmt.Errorf("spec.tags[%d] is longer than %d bytes", i, maxTagSize)
		case !utf8.ValidString(string(s)):
			return nil, fmt.Errorf("spec.tags[%d]: %s", i, notText("a tag"))
		case i > maxTags:
			return nil, fmt.Errorf("spec.tags has more than %d tags", maxTags)
		}
		tags = append(tags, string(s))
	}
	return tags, nil
}

// ctx.query{tag=, script=, name=, near=, radius=, limit=} returns an
// array of the Active entities that match every filter given: sorted by
// distance from near (an entity or a position) with ties by entity
// index, or else by entity index. Positions are the committed ones.
func (st *state) ctxQuery(L *lua.LState) int {
	spec := L.CheckTable(1)
	var q runtime.Query
	var bad string
	str := func(k string, v lua.LValue) string {
		s, ok := v.(lua.LString)
		if !ok || s == "" {
			bad = fmt.Sprintf("%s must be a non-empty string, not %s", k, v.Type())
		}
		return string(s)
	}
	num := func(k string, v lua.LValue) float64 {
		n, ok := v.(lua.LNumber)
		if !ok || !(n > 0) {
			bad = fmt.Sprintf("%s must be a positive number", k)
		}
		return float64(n)
	}
	for k, v := spec.Next(lua.LNil); k != lua.LNil && bad == ""; k, v = spec.Next(k) {
		switch key := k.String(); key {
		case "tag":
			q.Tag = str(key, v)
		case "script":
			q.Script = str(key, v)
		case "name":
			q.Name = str(key, v)
		case "radius":
			q.Radius = num(key, v)
		case "limit":
			n := num(key, v)
			if q.Limit = int(min(n, 1<<30)); bad == "" && n != math.Trunc(n) {
				bad = "limit must be a whole number"
			}
		case "near":
			if ud, ok := v.(*lua.LUserData); ok {
				if h, ok := ud.Value.(runtime.Handle); ok && st.host.world.on {
					p, found := st.nearOf(h)
					if !found {
						st.stale(L, st.host.worldIDOf(h))
					}
					q.Near = &p
					break
				}
				if h, ok := ud.Value.(runtime.Handle); ok {
					p, err := st.host.rt.Get(h, runtime.Position)
					if err != nil {
						L.RaiseError("ctx.query: near: stale entity handle %s", h)
					}
					q.Near = &p
					break
				}
			}
			p, err := readVec(v)
			if err != nil {
				bad = "near must be an entity or a position: " + err.Error()
			}
			q.Near = &p
		default:
			bad = fmt.Sprintf("unknown query field %s (want tag, script, name, near, radius, limit)", luaerr.Quote(key))
		}
	}
	if bad == "" && q.Radius > 0 && q.Near == nil {
		bad = "radius needs near"
	}
	if bad != "" {
		L.ArgError(1, bad)
	}
	if st.host.world.on {
		st.zonedQuery(L, q)
		return 1
	}
	st.pushQuery(L, q)
	return 1
}

// ctx.findAll(name) returns an array of the Active entities with that
// scene name, by entity index: ctx.query{name = name}.
func (st *state) ctxFindAll(L *lua.LState) int {
	name := L.CheckString(1)
	if st.host.world.on {
		st.zonedQuery(L, runtime.Query{Name: name})
		return 1
	}
	st.pushQuery(L, runtime.Query{Name: name})
	return 1
}

// pushQuery runs q in the host's runtime, charges its work to the
// callback and pushes the array of the entities found.
func (st *state) pushQuery(L *lua.LState, q runtime.Query) {
	hs, considered := st.host.rt.QueryAppendCounted(st.host.query[:0], q)
	st.host.query = hs
	st.host.charge(L, queryCost(considered, len(hs)))
	t := L.CreateTable(len(hs), 0)
	for _, h := range hs {
		t.Append(st.entity(h))
	}
	L.Push(t)
}

// queryCost is the work of a query that considered that many entities
// and found hits.
func queryCost(considered, hits int) int64 {
	return int64(considered)*queryWork + int64(hits)*queryHitWork
}
