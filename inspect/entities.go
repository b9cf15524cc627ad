package inspect

import (
	"cmp"
	"encoding/json"
	"net/http"
	"slices"
	"strconv"

	"github.com/luahost/luahost/runtime"
)

// entityRow is one entity of a listing, copied on the driving goroutine.
// Its strings and slices are never changed after, so the HTTP side
// writes the JSON while the world runs on.
type entityRow struct {
	h       runtime.Handle
	name    string
	state   runtime.State
	pos     runtime.Vec3
	tags    []string
	scripts []string
}

// entityFilter is the query of GET /api/entities: every field given must
// match (an entity has the tag, a live instance of the script, the name,
// the state).
type entityFilter struct {
	tag, script, name, state string
}

// states are the names a state filter may use.
var states = []string{"pending", "active", "dying", "dead"}

// getEntities lists the entities, by entity index: those matching the
// query's tag, script, name and state when given. The world's part is a
// copy of what is listed; the JSON is written off the world.
func (in *Inspector) getEntities(w http.ResponseWriter, r *http.Request) {
	q := r.URL.Query()
	f := entityFilter{tag: q.Get("tag"), script: q.Get("script"), name: q.Get("name"), state: q.Get("state")}
	if f.state != "" && !slices.Contains(states, f.state) {
		fail(w, http.StatusBadRequest, "bad state %q (want one of %v)", f.state, states)
		return
	}
	in.do(w, r, func() (any, error) {
		hs := in.rt.Entities()
		slices.SortFunc(hs, func(a, b runtime.Handle) int { return cmp.Compare(a.Index, b.Index) })
		list := make(entityList, 0, len(hs))
		var names []string
		for _, h := range hs {
			if row, ok := in.row(h, &names); ok && f.match(&row) {
				list = append(list, row)
			}
		}
		clear(in.insts)
		return list, nil
	})
}

func (f *entityFilter) match(e *entityRow) bool {
	return (f.name == "" || e.name == f.name) &&
		(f.state == "" || e.state.String() == f.state) &&
		(f.tag == "" || slices.Contains(e.tags, f.tag)) &&
		(f.script == "" || slices.Contains(e.scripts, f.script))
}

// row copies entity h, or returns false for a stale handle. Script names
// are appended to *names when given (one slice for a whole listing), or
// to a slice of their own.
func (in *Inspector) row(h runtime.Handle, names *[]string) (entityRow, bool) {
	st, err := in.rt.State(h)
	if err != nil {
		return entityRow{}, false
	}
	name, _ := in.rt.Name(h)
	pos, _ := in.rt.Get(h, runtime.Position)
	tags, _ := in.rt.Tags(h)
	in.insts, _ = in.rt.InstancesAppend(in.insts[:0], h)
	if names == nil {
		names = new([]string)
	}
	from := len(*names)
	for _, inst := range in.insts {
		*names = append(*names, inst.Script().Name())
	}
	return entityRow{h: h, name: name, state: st, pos: pos, tags: tags, scripts: (*names)[from:len(*names):len(*names)]}, true
}

// entityList is the answer of GET /api/entities. It writes its JSON by
// hand: a listing of 10,000 entities is the inspector's largest answer,
// and an open page asks for it several times a second.
type entityList []entityRow

// rawJSON writes {"entities": [{"id", "name", "state", "position",
// "tags", "scripts"}, ...]}.
func (l entityList) rawJSON() []byte {
	b := make([]byte, 0, 128*len(l)+16)
	b = append(b, `{"entities":[`...)
	for i := range l {
		e := &l[i]
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, `{"id":"entity(`...)
		b = strconv.AppendUint(b, uint64(e.h.Index), 10)
		b = append(b, ':')
		b = strconv.AppendUint(b, uint64(e.h.Gen), 10)
		b = append(b, `)","name":`...)
		b = appendString(b, e.name)
		b = append(b, `,"state":"`...)
		b = append(b, e.state.String()...)
		b = append(b, `","position":[`...)
		b = appendNumber(b, e.pos.X)
		b = append(b, ',')
		b = appendNumber(b, e.pos.Y)
		b = append(b, ',')
		b = appendNumber(b, e.pos.Z)
		b = append(b, `],"tags":`...)
		b = appendStrings(b, e.tags)
		b = append(b, `,"scripts":`...)
		b = appendStrings(b, e.scripts)
		b = append(b, '}')
	}
	return append(b, "]}"...)
}

func appendStrings(b []byte, ss []string) []byte {
	b = append(b, '[')
	for i, s := range ss {
		if i > 0 {
			b = append(b, ',')
		}
		b = appendString(b, s)
	}
	return append(b, ']')
}

// appendString appends s as a JSON string: plain ASCII as it is, anything
// else through encoding/json.
func appendString(b []byte, s string) []byte {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c >= 0x7f || c == '"' || c == '\\' || c == '<' || c == '>' || c == '&' {
			q, _ := json.Marshal(s)
			return append(b, q...)
		}
	}
	b = append(b, '"')
	b = append(b, s...)
	return append(b, '"')
}
