package lint

import (
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/luahost/luahost/luabind"
	"github.com/luahost/luahost/runtime"
)

// sandboxLibs returns the sandbox's library tables and their members.
func sandboxLibs(t *testing.T) map[string][]string {
	t.Helper()
	h, err := luabind.New(runtime.New(runtime.Options{OnError: runtime.Discard}), luabind.Options{Dir: t.TempDir(), Stdout: io.Discard, Log: io.Discard})
	require.NoError(t, err)
	defer h.Close()
	return h.LibraryMembers()
}

// TestLintAPI lints small scripts with the API-aware checks: what each
// reports, by line:col. Correct code that resembles a mistake reports
// nothing.
func TestLintAPI(t *testing.T) {
	libs := sandboxLibs(t)
	tests := []struct {
		name   string
		src    string
		props  []string
		closed bool
		want   []string
	}{
		{"every kind of member", `return {
  onUpdate = function(self, ctx, dt)
    local e = ctx.find("boss")
    local v = vec3(e:position()) * 2
    print(ctx.qurey, e:setPos(1), v:lenght(), (-v).w, math.florr(1), string.fromat("x"))
  end,
}`, nil, false, []string{
			"5:15: warning: unknown ctx member 'qurey'; did you mean 'query'?",
			"5:24: warning: unknown entity member 'setPos'; did you mean 'setPosition'?",
			"5:37: warning: unknown vec3 member 'lenght'; did you mean 'length'?",
			"5:52: warning: unknown vec3 member 'w'",
			"5:60: warning: unknown math member 'florr'; did you mean 'floor'?",
			"5:77: warning: unknown string member 'fromat'; did you mean 'format'?",
		}},
		{"correct code", `local Stack = {}
Stack.__index = Stack
function Stack:push(x) self.items[#self.items + 1] = x end
function string.trim(s) return (s:gsub("^%s+", "")) end
return {
  properties = { speed = 1 },
  onCreate = function(self, ctx) self.items = {} end,
  onUpdate = function(self, ctx, dt)
    for _, e in ipairs(ctx.query{ tag = "enemy" }) do
      local d = (vec3(e:position()) - vec3(ctx.entity:position())):normalized()
      e:send("hit", { dir = d:unpack(), speed = self.speed })
    end
    print(string.trim("  x"), ctx.entity:name(), ctx.blackboard.score, math.floor(ctx.time))
  end,
  reload = function(self, ctx) self.items = {} end,
  events = { hit = function(self, ctx, data, ev) print(ev.name, ev.last, data.speed) ev:stop() end },
}`, nil, false, nil},
		{"a name bound to two kinds of value is not checked", `return {
  onUpdate = function(self, ctx)
    local e = ctx.entity
    e = { nope = 1 }
    print(e.nope)
  end,
}`, nil, false, nil},
		{"self fields", `return {
  properties = { damage = 7 },
  onCreate = function(self, ctx) self.target = ctx.find("x") end,
  onUpdate = function(self, ctx) print(self.damge, self.targte, self.fromProps) end,
}`, nil, false, []string{
			"4:45: warning: self.damge is never set (not in properties, and no code of the script writes it); did you mean self.damage?",
			"4:57: warning: self.targte is never set (not in properties, and no code of the script writes it); did you mean self.target?",
		}},
		{"self passed on: its fields are unknown", `local helper = require("lib.helper")
return {
  onCreate = function(self, ctx) helper.init(self) end,
  onUpdate = function(self, ctx) print(self.damge) end,
}`, nil, true, nil},
		{"every attach known: a field nothing sets", `return {
  properties = { hp = 1 },
  onUpdate = function(self, ctx) print(self.hp, self.target, self.owner) end,
}`, []string{"owner"}, true, []string{
			"3:54: warning: self.target is never set (not in properties, not in any attach's props, and no code of the script writes it)",
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f, ok := parseLua("x.lua", []byte(tt.src))
			require.True(t, ok)
			var got []string
			for _, p := range f.lintAPI(libs, true, tt.props, tt.closed) {
				got = append(got, strings.TrimPrefix(p.String(), "x.lua:"))
			}
			assert.Equal(t, tt.want, got)
		})
	}
}

// TestLintProjectNames: event names and tags that only one side knows,
// across files; a name computed at run time silences the other side.
func TestLintProjectNames(t *testing.T) {
	tests := []struct {
		name  string
		files []string
		want  []string
	}{
		{"misspelt on one side", []string{
			`return { onUpdate = function(self, ctx) ctx.emit("damgae") ctx.query{ tag = "enemies" } end }`,
			`return { onCreate = function(self, ctx) ctx.entity:tag("enemy") end, events = { damage = function() end } }`,
		}, []string{
			`event "damgae" is sent but no script handles it; did you mean "damage"?`,
			`event "damage" is handled but no script sends it; did you mean "damgae"?`,
			`tag "enemies" is queried but nothing sets it; did you mean "enemy"?`,
		}},
		{"both sides known", []string{
			`return { onUpdate = function(self, ctx, dt) for _, e in ipairs(ctx.findAll("x")) do e:send("hit") end end }`,
			`return { onCreate = function(self, ctx) ctx.spawn{ tags = { "loot" } } end, events = { hit = function() end } }`,
			`return { onUpdate = function(self, ctx) if ctx.entity:hasTag("loot") then end end }`,
		}, nil},
		{"computed names", []string{
			`return { onUpdate = function(self, ctx) ctx.emit(self.kind) ctx.entity:tag(self.kind) ctx.query{ tag = "any" } end }`,
			`return { events = { anything = function() end } }`,
		}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var p projectNames
			for _, src := range tt.files {
				f, ok := parseLua("x.lua", []byte(src))
				require.True(t, ok)
				p.collect(f)
			}
			var got []string
			for _, f := range p.check() {
				got = append(got, f.message)
			}
			assert.Equal(t, tt.want, got)
		})
	}
}

// TestLintAPIConformance: the programs of the differential suite, which
// use the whole standard library, get no warning from the API checks.
func TestLintAPIConformance(t *testing.T) {
	libs := sandboxLibs(t)
	files, err := filepath.Glob(filepath.Join("..", "..", "luabind", "testdata", "conformance", "*.lua"))
	require.NoError(t, err)
	require.NotEmpty(t, files)
	for _, path := range files {
		src, err := os.ReadFile(path)
		require.NoError(t, err)
		f, ok := parseLua(path, src)
		if !ok {
			continue
		}
		assert.Empty(t, f.lintAPI(libs, false, nil, false), path)
	}
}
