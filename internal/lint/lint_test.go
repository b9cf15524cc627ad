package lint

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestSuggest: misspellings of known fields get a suggestion; a script's
// own names that merely resemble one do not.
func TestSuggest(t *testing.T) {
	tests := []struct{ name, want string }{
		{"onUpdte", "onUpdate"},
		{"onupdate", "onUpdate"},
		{"priorty", "priority"},
		{"propertes", "properties"},
		{"event", "events"},
		{"onCreated", "onCreate"},
		{"onDestory", "onDestroy"},
		{"nmae", ""}, // two edits from a four-letter field
		{"onHit", ""},
		{"explode", ""},
		{"update", "onUpdate"}, // a habit from other engines
		{"create", "onCreate"},
		{"onUpdate", ""}, // itself
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			assert.Equal(t, tt.want, suggest(tt.name, knownFields))
		})
	}
}

// TestLintSource lints small sources: what each reports, by line.
func TestLintSource(t *testing.T) {
	globals := []string{"ipairs", "math", "print", "require", "table", "vec3"}
	tests := []struct {
		name string
		src  string
		want []string
	}{
		{"clean", `local m = require("lib.m")
local cache = {}
return {
  onUpdate = function(self, ctx, dt)
    for i, v in ipairs(cache) do print(i, v, m, math.pi) end
    local function helper(n) return helper(n - 1) end
  end,
}`, nil},
		{"module-level state", `local cache, seen, limit = {}, {}, 3
local M = {}
function M.onUpdate(self, ctx)
  if limit > 0 then
    cache[ctx.entity:id()] = { t = ctx.time }
  end
  table.insert(cache, 1)
  self.cache = seen
end
M.onCreate = function(self, ctx) seen.x.y = 1 end
return M`, []string{
			"5:5: warning: module-level table 'cache' is changed inside a function: snapshots do not save it (keep state in self or the blackboard)",
			"10:34: warning: module-level table 'seen' is changed inside a function: snapshots do not save it (keep state in self or the blackboard)",
		}},
		{"locals of loops and repeat scopes", `return {
  onUpdate = function(self, ctx)
    for i = 1, 3 do print(i) end
    repeat local done = true until done
    print(i)
  end,
}`, []string{"5:11: warning: undefined global 'i'"}},
		{"a global function assigned inside a function", `return {
  onCreate = function(self, ctx)
    function shout() print("hey") end
    shout()
  end,
}`, []string{"3:14: warning: global 'shout' assigned inside a function (a missing 'local'? keep instance state in self)"}},
		{"a method's self", `local M = {}
function M:helper() return self end
function M.onUpdate(self, ctx) ctx.after(1, "helper") ctx.every(1, "helpr") end
return M`, []string{`3:68: error: timer names "helpr", which is not a function of the script table; did you mean helper?`}},
		{"a chunk that returns no table it builds", `return require("lib.m")`, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			f, ok := parseLua("x.lua", []byte(tt.src))
			require.True(t, ok)
			var got []string
			for _, p := range f.lintScript(globals) {
				got = append(got, p.String()[len("x.lua:"):])
			}
			assert.Equal(t, tt.want, got)
		})
	}
}
