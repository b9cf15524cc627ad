package luabind

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	lua "github.com/yuin/gopher-lua"
)

// boundState returns a fresh state of w's host with everything bound, as
// a script's state is before its chunk runs, and the globals binding set
// or replaced.
func boundState(t testing.TB, w *world) (st *state, globals []string) {
	t.Helper()
	L := w.h.newSandbox()
	t.Cleanup(L.Close)
	before := map[lua.LValue]lua.LValue{}
	L.G.Global.ForEach(func(k, v lua.LValue) { before[k] = v })
	st = &state{host: w.h, script: &Script{host: w.h, name: "api"}, L: L}
	st.bind()
	L.G.Global.ForEach(func(k, v lua.LValue) {
		if before[k] != v && k.String() != lua.LoadLibName {
			globals = append(globals, k.String())
		}
	})
	return st, globals
}

// memberNames returns the names of owner's members in the registry.
func memberNames(owner string) []string {
	var names []string
	for _, m := range APIMembers(owner) {
		names = append(names, m.Name)
	}
	return names
}

// tableKeys returns t's string keys, and which of them hold functions.
func tableKeys(t *lua.LTable) (keys []string, funcs map[string]bool) {
	funcs = map[string]bool{}
	t.ForEach(func(k, v lua.LValue) {
		s := k.String()
		keys = append(keys, s)
		_, funcs[s] = v.(*lua.LFunction)
	})
	return keys, funcs
}

// TestAPIMatchesBindings: every member the runtime binds on ctx, on
// entity values and on vectors, and every global the host adds to the
// standard library, is in the registry with the right kind, and the
// registry lists nothing the runtime does not bind.
func TestAPIMatchesBindings(t *testing.T) {
	w := newWorld(t)
	st, added := boundState(t, w)
	ctxKeys, ctxFuncs := tableKeys(st.ctxFields)
	ctxKeys = append(ctxKeys, "entity")
	entKeys, entFuncs := tableKeys(st.entityMT.RawGetString("__index").(*lua.LTable))
	vecKeys, vecFuncs := tableKeys(st.vecMT.RawGetString("__index").(*lua.LTable))
	vecKeys = append(vecKeys, "x", "y", "z")
	funcs := map[string]bool{}
	for _, name := range added {
		_, funcs[name] = st.L.G.Global.RawGetString(name).(*lua.LFunction)
	}

	for _, c := range []struct {
		owner  string
		bound  []string
		funcs  map[string]bool
		method bool
	}{
		{"Ctx", ctxKeys, ctxFuncs, false},
		{"Entity", entKeys, entFuncs, true},
		{"Vec3", vecKeys, vecFuncs, true},
		{"", added, funcs, false},
	} {
		t.Run(c.owner, func(t *testing.T) {
			assert.ElementsMatch(t, c.bound, memberNames(c.owner))
			for _, m := range APIMembers(c.owner) {
				want := APIField
				if c.funcs[m.Name] {
					want = APIFunction
					if c.method {
						want = APIMethod
					}
				}
				assert.Equal(t, want, m.Kind, "kind of %s", m.Name)
			}
		})
	}
}

// sampleArg returns a Lua expression of a valid argument of type typ.
func sampleArg(typ string) string {
	switch {
	case strings.HasPrefix(typ, "number"), strings.HasPrefix(typ, "integer"):
		return "1"
	case strings.HasPrefix(typ, "string"):
		return `"nothing"`
	case strings.HasPrefix(typ, "luahost.Vec3"):
		return "vec3(1, 2, 3)"
	}
	return "{}"
}

// probeCall returns the Lua call of m with its first n parameters.
func probeCall(m APIMember, n int) string {
	args := make([]string, n)
	for i := range n {
		args[i] = sampleArg(m.Params[i].Type)
	}
	list := strings.Join(args, ", ")
	switch m.Owner {
	case "Ctx":
		return fmt.Sprintf("ctx.%s(%s)", m.Name, list)
	case "Entity":
		return fmt.Sprintf("ctx.entity:%s(%s)", m.Name, list)
	case "Vec3":
		return fmt.Sprintf("vec3(1, 2, 3):%s(%s)", m.Name, list)
	}
	return fmt.Sprintf("%s(%s)", m.Name, list)
}

// TestAPIArity: every function of the registry accepts the arity the
// registry gives it. Called with one argument fewer than it requires, it
// raises "bad argument #n" for the missing one; called with exactly the
// required arguments, it raises no argument error. Every member of the
// event value answers in a handler.
func TestAPIArity(t *testing.T) {
	var src strings.Builder
	src.WriteString("local function probe(label, f)\n  local ok, err = pcall(f)\n  print(label, ok, (tostring(err):gsub('\\n.*', '')))\nend\nreturn {\n  onCreate = function(self, ctx)\n")
	type call struct {
		label string
		short bool
		n     int
	}
	var calls []call
	for _, m := range API() {
		r := m.Required()
		if (m.Kind != APIFunction && m.Kind != APIMethod) || m.Owner == "Event" || r == 0 {
			continue
		}
		for _, short := range []bool{true, false} {
			label := m.Owner + "." + m.Name
			n := r
			if short {
				label, n = label+"/short", r-1
			}
			calls = append(calls, call{label, short, r})
			fmt.Fprintf(&src, "    probe(%q, function() return %s end)\n", label, probeCall(m, n))
		}
	}
	src.WriteString("  end,\n  onUpdate = function(self, ctx) ctx.entity:send('probe', 7) end,\n  events = { probe = function(self, ctx, data, ev)\n")
	events := APIMembers("Event")
	for _, m := range events {
		fmt.Fprintf(&src, "    print(%q, ev.%s ~= nil)\n", "Event."+m.Name, m.Name)
	}
	src.WriteString("  end },\n}\n")

	w := newWorld(t)
	require.NoError(t, w.h.Reload("apiprobe", []byte(src.String())), src.String())
	w.spawn("", "apiprobe")
	w.step(1, 0.1)
	w.requireNoErrors()
	lines := w.takeLines()
	require.Len(t, lines, len(calls)+len(events), src.String())
	for i, c := range calls {
		got := lines[i]
		require.True(t, strings.HasPrefix(got, c.label+"\t"), "line %d is %q, want %s", i, got, c.label)
		if c.short {
			assert.Contains(t, got, fmt.Sprintf("bad argument #%d", c.n), c.label)
		} else {
			assert.NotContains(t, got, "bad argument", c.label)
		}
	}
	for i, m := range events {
		assert.Equal(t, "Event."+m.Name+"\ttrue", lines[len(calls)+i])
	}
}

// TestAPIScriptFields: the host reads every field of the script table the
// registry lists: a value of the wrong type is refused, naming the field.
func TestAPIScriptFields(t *testing.T) {
	w := newWorld(t)
	for _, m := range APIMembers("Script") {
		t.Run(m.Name, func(t *testing.T) {
			wrong := "true"
			if m.Name == "name" {
				wrong = "{}"
			}
			err := w.h.Reload("fields/"+m.Name, fmt.Appendf(nil, "return { %s = %s }", m.Name, wrong))
			require.Error(t, err)
			assert.Contains(t, err.Error(), "field '"+m.Name+"'")
		})
	}
	assert.True(t, slices.ContainsFunc(APIMembers("Script"), func(m APIMember) bool { return m.Kind == APICallback }))
}

// TestLibraryMembers: the sandbox's library tables are listed with what
// the sandbox keeps of them, and without what it removes.
func TestLibraryMembers(t *testing.T) {
	libs := newWorld(t).h.LibraryMembers()
	assert.Contains(t, libs["math"], "floor")
	assert.Contains(t, libs["string"], "format")
	assert.Contains(t, libs["os"], "clock")
	assert.NotContains(t, libs["os"], "exit")
	assert.NotContains(t, libs["os"], "execute")
	assert.NotContains(t, libs, "io")
	assert.NotContains(t, libs, "_G")
	assert.True(t, slices.IsSorted(libs["table"]))
}
