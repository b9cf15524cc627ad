package inspect

import (
	"fmt"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/luahost/luahost/luabind"
)

// TestBrowserDebugRewind drives the debugger panel and the timeline in
// headless Chromium: a click on a line of the mover's source sets a
// breakpoint, the world pauses there and the page highlights the line,
// shows the stack and self; a step over moves the highlight on; a rewind
// of 30 frames from the timeline shows the mover earlier on its way, on
// the map.
func TestBrowserDebugRewind(t *testing.T) {
	w := newWorld(t, Options{Debugger: &luabind.Debugger{}, Timeline: newHistory()}, 5*time.Millisecond)
	ctx := openBrowser(t)
	run := func(what string, actions ...chromedp.Action[chromedp.Void]) {
		t.Helper()
		require.NoError(t, chromedp.Do(ctx, actions...), what)
	}
	until := func(what, js string) {
		t.Helper()
		_, err := chromedp.Run(ctx, chromedp.Poll[bool](js, chromedp.WithPollingTimeout(20*time.Second)))
		require.NoError(t, err, what)
	}
	require.Eventually(t, func() bool { return w.frame() > 40 }, 20*time.Second, 5*time.Millisecond)

	run("load the page", chromedp.Navigate(w.srv.URL+"/"))
	until("the panel shows", `!document.getElementById("debug-pane").hidden && !document.getElementById("timeline-box").hidden`)
	run("show the mover's source", chromedp.SetValue(chromedp.ID("debug-script"), "mover"),
		chromedp.Evaluate[chromedp.Void](`document.getElementById("debug-script").dispatchEvent(new Event("change"))`))
	until("its lines show", `(document.querySelector('#source li[data-line="9"]') || {}).textContent?.includes("setPosition")`)
	a := w.a.String()
	until("the map shows the mover", fmt.Sprintf(`inspector.screenOf(%q) !== null`, a))

	run("click line 9", chromedp.Click(chromedp.CSS(`#source li[data-line="9"]`)))
	until("the world pauses there, highlighted", `document.querySelector('#source li.paused[data-line="9"].bp') !== null`)
	until("the stack shows the callback", `document.getElementById("stack").textContent.includes("onUpdate")`)
	until("self shows", `document.querySelector('#variables details[data-scope="self"] li[data-name="frames"]') !== null`)

	run("step over", chromedp.Click(chromedp.ID("dbg-next")))
	until("the highlight moves on", `document.querySelector('#source li.paused') !== null && document.querySelector('#source li.paused[data-line="9"]') === null`)
	run("clear the breakpoint", chromedp.Click(chromedp.CSS(`#source li[data-line="9"]`)))
	until("it is cleared", `document.querySelector('#source li.bp') === null`)

	before, err := chromedp.Run(ctx, chromedp.Evaluate[map[string]float64](fmt.Sprintf(`inspector.screenOf(%q)`, a)))
	require.NoError(t, err)
	// The frame under way is not held yet: the timeline ends at the one
	// before.
	frame := w.frame()
	until("the timeline reaches the frame before the paused one", fmt.Sprintf(`document.getElementById("timeline").value === "%d"`, int(frame)-1))
	back, err := chromedp.Run(ctx, chromedp.Evaluate[int](`(() => {
		const r = document.getElementById("timeline");
		r.value = Number(r.value) - 30;
		r.dispatchEvent(new Event("input"));
		return Number(r.value);
	})()`))
	require.NoError(t, err)
	assert.Equal(t, int(frame)-31, back)
	run("rewind", chromedp.Click(chromedp.ID("rewind")))
	until("the world is 30 frames back, paused", fmt.Sprintf(`document.body.dataset.frame === "%d" && document.body.dataset.paused === "true"`, back))
	until("the map shows the mover earlier on its way", fmt.Sprintf(`inspector.screenOf(%q).x < %v - 3`, a, before["x"]))
	assert.Equal(t, float64(back), w.frame())
}
