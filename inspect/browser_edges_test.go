package inspect

import (
	"fmt"
	"net/url"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// addTwins adds two named entities at one spot, whose labels would cover
// each other, and one blue entity.
func addTwins(w *world) {
	for _, name := range []string{"twin-one", "twin-two"} {
		e := w.rt.Spawn()
		require.NoError(w.t, w.rt.SetName(e, name))
		_, err := w.host.Attach(e, "reader", nil)
		require.NoError(w.t, err)
		require.NoError(w.t, w.rt.Activate(e))
	}
}

// TestBrowserRoughEdges drives the page in headless Chromium through what
// a designer tripped on: scripts get colours far apart; labels at one spot
// do not cover each other; the tag filter filters the map too; the console
// asks which script of a multi-script entity it targets and shows it; an
// edit of self that is not JSON is refused with a message; a faulted
// instance is restarted from the page.
func TestBrowserRoughEdges(t *testing.T) {
	w := newWorld(t, Options{}, 10*time.Millisecond, addTwins)
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
	eval := func(js string) string {
		t.Helper()
		s, err := chromedp.Run(ctx, chromedp.Evaluate[string](js))
		require.NoError(t, err, js)
		return s
	}

	run("load the page", chromedp.Navigate(w.srv.URL+"/"))
	until("the map shows every entity", `inspector.drawn() === 5`)

	colours := strings.Split(eval(`["mover", "faulty", "reader", "orbit"].map(inspector.colour).join(" ")`), " ")
	rgb := func(hex string) [3]int {
		var c [3]int
		for i := range c {
			n, err := strconv.ParseUint(hex[1+2*i:3+2*i], 16, 8)
			require.NoError(t, err, hex)
			c[i] = int(n)
		}
		return c
	}
	for i := range colours {
		for j := i + 1; j < len(colours); j++ {
			a, b := rgb(colours[i]), rgb(colours[j])
			d := 0
			for k := range a {
				d += (a[k] - b[k]) * (a[k] - b[k])
			}
			assert.Greater(t, d, 80*80, "colours %s and %s are too close", colours[i], colours[j])
		}
	}

	overlap := `(() => { const ls = inspector.labels(); for (let i = 0; i < ls.length; i++) for (let j = i + 1; j < ls.length; j++) { const a = ls[i], b = ls[j]; if (a.x < b.x + b.w && b.x < a.x + a.w && a.y < b.y + b.h && b.y < a.y + a.h) return true; } return ls.length === 0; })()`
	until("labels are drawn", `inspector.labels().length > 0`)
	assert.Equal(t, "false", eval(`String(`+overlap+`)`), "labels cover each other")

	run("filter by tag", chromedp.SendKeys(chromedp.ID("filter-tag"), "blue"))
	until("the map shows the blue one only", `inspector.drawn() === 1`)
	run("clear the filter", chromedp.SendKeys(chromedp.ID("filter-tag"), strings.Repeat(kb.Backspace, 4)))
	until("the map shows every entity again", `inspector.drawn() === 5`)

	b := w.b.String()
	require.NoError(t, clickWhenThere(ctx, fmt.Sprintf(`#entity-list li[data-id="%s"]`, b)), "select b")
	until("the console asks which script", `document.getElementById("console-target").value === "" && document.getElementById("console-target").options[0]?.textContent.includes("which script")`)
	run("run without choosing", chromedp.SetValue(chromedp.CSS("#console-code"), "return self.tries"), chromedp.Click(chromedp.ID("console-run")))
	until("the console says to choose", `document.getElementById("console-out").textContent.includes("choose the one the snippet runs in")`)
	run("choose faulty and run", chromedp.SetValue(chromedp.ID("console-target"), b+"|faulty"), chromedp.Click(chromedp.ID("console-run")))
	until("the console shows its target and answers", `document.getElementById("console-out").textContent.includes("faulty@`+b+`> return self.tries")`)

	a := w.a.String()
	require.NoError(t, clickWhenThere(ctx, fmt.Sprintf(`#entity-list li[data-id="%s"]`, a)), "select a")
	speed := `#detail .instance[data-script="mover"] .value[data-key="speed"]`
	require.NoError(t, clickWhenThere(ctx, speed), "edit self.speed")
	run("type text that is not JSON", chromedp.WaitVisible(chromedp.CSS(speed+" input")),
		chromedp.SetValue(chromedp.CSS(speed+" input"), "fast"),
		chromedp.SendKeys(chromedp.CSS(speed+" input"), kb.Enter))
	until("the edit is refused with a message", `document.getElementById("log").textContent.includes("fast is not JSON")`)
	mover := instanceOf(t, w.get("/api/entities/"+url.PathEscape(a)), "mover")
	assert.IsType(t, 0.0, mover["self"].(map[string]any)["speed"], "speed is still a number")

	run("pause", chromedp.Click(chromedp.ID("pause")))
	until("paused", `document.body.dataset.paused === "true"`)
	require.NoError(t, clickWhenThere(ctx, fmt.Sprintf(`#entity-list li[data-id="%s"]`, b)), "select b again")
	faulty := `#detail .instance[data-script="faulty"]`
	require.NoError(t, clickWhenThere(ctx, faulty+" button.restart"), "restart faulty")
	until("faulty is no longer faulted", `!document.querySelector('`+faulty+`').classList.contains("faulted")`)
	run("step", chromedp.Click(chromedp.ID("step")))
	until("it ran, and failed, again", `document.querySelector('`+faulty+`').classList.contains("faulted") && document.querySelector('`+faulty+` .value[data-key="tries"]').textContent === "2"`)
}
