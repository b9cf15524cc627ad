package luabind

import (
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/luahost/luahost/runtime"
)

// TestTimerMissingFunction: a timer naming a function the script does not
// have is an error of that instance when it fires; the instance is
// faulted, and the others run on.
func TestTimerMissingFunction(t *testing.T) {
	const src = `return {
  properties = { fn = "pulse" },
  onCreate = function(self, ctx) ctx.after(0.1, self.fn) end,
  pulse = function(self, ctx) print("pulse", ctx.frame) end,
  onUpdate = function(self, ctx) print("update", self.fn, ctx.frame) end,
}`
	w := newWorld(t)
	require.NoError(t, w.h.Reload("pulser", []byte(src)))
	e := w.rt.Spawn()
	w.attach(e, "pulser", map[string]any{"fn": "nope"})
	w.attach(e, "pulser", nil)
	require.NoError(t, w.rt.Activate(e))
	w.step(2, 0.1)
	assert.Equal(t, []string{"pulse\t1", "update\tpulse\t1", "update\tpulse\t2"}, w.takeLines())
	errs := w.scriptErrors()
	require.Len(t, errs, 1)
	assert.Equal(t, "timer nope", errs[0].Callback)
	assert.Equal(t, uint64(1), errs[0].Frame)
	assert.Contains(t, errs[0].Message, `timer 1 names "nope", which is not a function of the script table`)
}

// TestTimerSurvivesReload: a timer names a function, so after a hot
// reload the new version's function runs.
func TestTimerSurvivesReload(t *testing.T) {
	const v1 = `return {
  onCreate = function(self, ctx) ctx.every(1, "pulse", { n = 7 }) end,
  pulse = function(self, ctx, data) print("v1", data.n, ctx.frame) end,
}`
	const v2 = `return {
  pulse = function(self, ctx, data) print("v2", data.n, ctx.frame) end,
}`
	w := newWorld(t)
	require.NoError(t, w.h.Reload("pulse", []byte(v1)))
	w.spawn("", "pulse")
	w.step(2, 0.5)
	require.NoError(t, w.h.Reload("pulse", []byte(v2)))
	w.step(2, 0.5)
	assert.Equal(t, []string{"v1\t7\t2", "v2\t7\t4"}, w.takeLines())
	w.requireNoErrors()
}

// TestTimerLifecycle: timers of detached, dying or faulted instances do
// not fire and are dropped at destroy; a timer that detaches its
// instance stops its other timers and its onUpdate in that frame.
func TestTimerLifecycle(t *testing.T) {
	const src = `return {
  onCreate = function(self, ctx)
    ctx.after(0.1, "first")
    ctx.after(0.1, "second")
  end,
  first = function(self, ctx)
    print("first", self.id)
    if self.id == "detacher" then ctx.detach() end
    if self.id == "killer" then ctx.entity:kill() end
    if self.id == "faulter" then error("boom") end
  end,
  second = function(self, ctx) print("second", self.id) end,
  onUpdate = function(self, ctx) print("update", self.id) end,
  onDestroy = function(self, ctx)
    local ok, err = pcall(ctx.after, 0, "second")
    print("destroy", self.id, ok, err:match("being destroyed") ~= nil)
  end,
}`
	w := newWorld(t)
	require.NoError(t, w.h.Reload("timed", []byte(src)))
	var insts []*runtime.Instance
	for _, id := range []string{"detacher", "killer", "faulter", "plain", "detached"} {
		e := w.rt.Spawn()
		insts = append(insts, w.attach(e, "timed", map[string]any{"id": id}))
		require.NoError(t, w.rt.Activate(e))
	}
	require.True(t, w.rt.Detach(insts[4]))
	w.step(1, 0.1)
	assert.Equal(t, []string{
		"destroy\tdetached\tfalse\ttrue",
		"first\tdetacher",
		"first\tkiller",
		"first\tfaulter",
		"first\tplain", "second\tplain", "update\tplain",
		"destroy\tdetacher\tfalse\ttrue", "destroy\tkiller\tfalse\ttrue",
	}, w.takeLines())
	require.Len(t, w.errs, 1, "the faulter's error")
	w.step(2, 0.1)
	assert.Equal(t, []string{"update\tplain", "update\tplain"}, w.takeLines(), "no timer fires after its instance stopped")
	for _, inst := range insts {
		if !inst.Live() {
			assert.Empty(t, inst.Data.(*instance).pending(), "%s: timers dropped at destroy", inst)
		}
	}
	assert.Len(t, insts[2].Data.(*instance).pending(), 1, "a faulted instance keeps its timer, unfired")
}

// TestTimerSimulatedTime: an every timer counts the sum of dt; with dt
// 1/60 a 0.5 s period fires every 30 frames, though 30 * (1/60) is not
// exactly 0.5 in binary.
func TestTimerSimulatedTime(t *testing.T) {
	const src = `return {
  onCreate = function(self, ctx) ctx.every(0.5, "half") end,
  half = function(self, ctx) print(ctx.frame) end,
}`
	w := newWorld(t)
	require.NoError(t, w.h.Reload("half", []byte(src)))
	w.spawn("", "half")
	w.step(120, 1.0/60)
	assert.Equal(t, []string{"30", "60", "90", "120"}, w.takeLines())
	w.requireNoErrors()
}

// TestTimerLimit: an instance has at most MaxTimers pending timers; one
// more is an error of the call, and cancelling makes room again.
func TestTimerLimit(t *testing.T) {
	const src = `return {
  onCreate = function(self, ctx)
    local ids = {}
    local ok, err = pcall(function()
      for i = 1, 20000 do ids[#ids + 1] = ctx.after(100, "never") end
    end)
    print(#ids, ok, err:match("too many timers") ~= nil)
    ctx.cancel(ids[#ids])
    print(pcall(ctx.after, 1, "never"))
  end,
  never = function() end,
}`
	w := newWorld(t, withBudget(-1, 0))
	require.NoError(t, w.h.Reload("many", []byte(src)))
	w.spawn("", "many")
	w.h.Flush()
	assert.Equal(t, []string{fmt.Sprintf("%d\tfalse\ttrue", MaxTimers), fmt.Sprintf("true\t%d", MaxTimers+1)}, w.takeLines())
	w.requireNoErrors()
}

// TestTimerReportBounded: a timer naming a huge string, whether the script
// table has no such function or one that fails, is reported with the
// name cut short: every report is bounded in size, so ten thousand such
// timers cannot exhaust memory.
func TestTimerReportBounded(t *testing.T) {
	tests := []struct {
		name, src, want string
	}{
		{"missing", `local big = ("\1x"):rep(524288)
return {
  onCreate = function(self, ctx) ctx.after(0, big) end,
}`, `which is not a function of the script table`},
		{"failing", `local big = ("\1x"):rep(524288)
local s = {
  onCreate = function(self, ctx) ctx.after(0, big) end,
}
s[big] = function() error("boom") end
return s`, `boom`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w := newWorld(t)
			require.NoError(t, w.h.Reload("bigname", []byte(tt.src)))
			w.spawn("", "bigname")
			w.step(1, 0.1)
			errs := w.scriptErrors()
			require.Len(t, errs, 1)
			assert.Contains(t, errs[0].Message, tt.want)
			assert.Less(t, len(errs[0].Error()), 4096, "the report is bounded")
			assert.Less(t, len(errs[0].Callback), 200)
			assert.True(t, strings.HasPrefix(errs[0].Callback, `timer "\x01x\x01x`), errs[0].Callback)
		})
	}
}

// TestNamesAreText: a name, tag or timer name that is not valid UTF-8 is
// refused where a script gives it, so that a saved world restores equal.
func TestNamesAreText(t *testing.T) {
	tests := []struct{ name, code, want string }{
		{"spawn name", `ctx.spawn({ name = "bad\255" })`, "spec.name: a name must be valid UTF-8 text"},
		{"spawn tag", `ctx.spawn({ tags = { "ok", "bad\255" } })`, "spec.tags[2]: a tag must be valid UTF-8 text"},
		{"tag", `ctx.entity:tag("bad\255")`, "the tag must be valid UTF-8 text"},
		{"timer", `ctx.after(1, "bad\255")`, "the function's name must be valid UTF-8 text"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			w := newWorld(t)
			src := "return { onCreate = function(self, ctx) " + tt.code + " end }"
			require.NoError(t, w.h.Reload("texts", []byte(src)))
			w.spawn("", "texts")
			errs := w.scriptErrors()
			require.Len(t, errs, 1)
			assert.Contains(t, errs[0].Message, tt.want)
		})
	}
}
