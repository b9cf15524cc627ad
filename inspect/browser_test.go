package inspect

import (
	"context"
	"fmt"
	"math"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/chromedp/chromedp/kb"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/luahost/luahost/runtime"
)

// Environment variables of the browser test.
const (
	// browserEnv names the Chromium binary to use instead of the first of
	// chromium, chromium-browser, google-chrome found on PATH.
	browserEnv = "LUAHOST_BROWSER"
	// screenshotEnv names the file the page's screenshot is written to
	// (the picture of docs/inspector.md is made so); by default it goes
	// to the test's temporary folder, as an artifact.
	screenshotEnv = "LUAHOST_SCREENSHOT"
)

// findBrowser returns the path of a Chromium, or "".
func findBrowser() string {
	if p := os.Getenv(browserEnv); p != "" {
		return p
	}
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	return ""
}

// addCrowd adds n entities circling the origin, tagged "crowd", half of
// them "blue" too.
func addCrowd(n int) func(*world) {
	return func(w *world) {
		for i := range n {
			e := w.rt.Spawn()
			require.NoError(w.t, w.rt.SetName(e, fmt.Sprintf("walker%02d", i)))
			require.NoError(w.t, w.rt.Tag(e, "crowd"))
			if i%2 == 0 {
				require.NoError(w.t, w.rt.Tag(e, "blue"))
			}
			_, err := w.host.Attach(e, "orbit", map[string]any{"radius": 4 + float64(i%4)*2, "phase": float64(i) / float64(n)})
			require.NoError(w.t, err)
			require.NoError(w.t, w.rt.Activate(e))
		}
	}
}

// TestBrowser drives the page in headless Chromium against a running
// world: it loads and shows the entity count, clicking an entity (in the
// list, on the canvas) shows its self, pause then step moves the frame by
// exactly one, an edit of self shows in the next frame, the console
// answers, a fault shows with its file:line, the filters filter, a
// blackboard edit lands; a screenshot is kept.
// Without Chromium it skips, except under CI, where it fails.
func TestBrowser(t *testing.T) {
	const crowd = 24
	w := newWorld(t, Options{}, 10*time.Millisecond, addCrowd(crowd))
	ctx := openBrowser(t)

	run := func(what string, actions ...chromedp.Action[chromedp.Void]) {
		t.Helper()
		require.NoError(t, chromedp.Do(ctx, actions...), what)
	}
	// click clicks the element sel selects once it is there.
	click := func(what, sel string) {
		t.Helper()
		require.NoError(t, clickWhenThere(ctx, sel), what)
	}
	// text reads an element's text.
	text := func(sel string) string {
		t.Helper()
		s, err := chromedp.Run(ctx, chromedp.Text(chromedp.CSS(sel)))
		require.NoError(t, err, "read %s", sel)
		return s
	}
	// until waits for a JavaScript condition to hold.
	until := func(what, js string) {
		t.Helper()
		_, err := chromedp.Run(ctx, chromedp.Poll[bool](js, chromedp.WithPollingTimeout(20*time.Second)))
		require.NoError(t, err, what)
	}

	run("load the page", chromedp.Navigate(w.srv.URL+"/"))
	until("the entity count shows", fmt.Sprintf(`document.getElementById("entity-count").textContent === "%d"`, 3+crowd))
	until("the list shows the entities", `document.querySelectorAll("#entity-list li[data-id]").length === 27`)

	a := w.a.String()
	click("select entity a", fmt.Sprintf(`#entity-list li[data-id="%s"]`, a))
	frames := `#detail .instance[data-script="mover"] .value[data-key="frames"]`
	run("its self shows", chromedp.WaitVisible(chromedp.CSS(frames)))
	assert.Regexp(t, `^\d+$`, text(frames))
	until("the console targets it", `document.getElementById("console-target").value.startsWith("`+a+`|mover")`)

	run("pause", chromedp.Click(chromedp.ID("pause")))
	until("paused", `document.body.dataset.paused === "true"`)
	f := frameOf(t, text("#frame"))
	assert.Equal(t, f, frameOf(t, text("#frame")))
	run("step", chromedp.Click(chromedp.ID("step")))
	until("one frame later", fmt.Sprintf(`document.body.dataset.frame === "%d"`, f+1))
	assert.Equal(t, float64(f+1), w.frame(), "the world ran exactly one frame")
	until("the self shows the frame", fmt.Sprintf(`document.querySelector(%q).textContent === "%d"`, frames, f+1))

	speed := `#detail .instance[data-script="mover"] .value[data-key="speed"]`
	x0 := w.get("/api/entities/" + url.PathEscape(a))["position"].([]any)[0].(float64)
	click("edit self.speed", speed)
	run("type the new speed", chromedp.WaitVisible(chromedp.CSS(speed+" input")),
		chromedp.SetValue(chromedp.CSS(speed+" input"), "60"),
		chromedp.SendKeys(chromedp.CSS(speed+" input"), kb.Enter))
	until("the edit shows", fmt.Sprintf(`document.querySelector(%q).textContent === "60"`, speed))
	run("step", chromedp.Click(chromedp.ID("step")))
	until("one more frame", fmt.Sprintf(`document.body.dataset.frame === "%d"`, f+2))
	x1 := w.get("/api/entities/" + url.PathEscape(a))["position"].([]any)[0].(float64)
	assert.InDelta(t, x0+1, x1, 1e-9, "the next frame moved at speed 60 for 1/60 s")
	until("the page shows the new position", fmt.Sprintf(`document.querySelector("#detail dl").textContent.includes(%q)`, strconv.FormatFloat(math.Round(x1*1000)/1000, 'f', 3, 64)))

	run("ask the console", chromedp.SetValue(chromedp.CSS("#console-code"), "print('hello from', ctx.entity:name()) return self.speed * 2"),
		chromedp.Click(chromedp.ID("console-run")))
	until("the console answers", `document.getElementById("console-out").textContent.includes("= 120")`)
	assert.Contains(t, text("#console-out"), "hello from\ta")

	xy, err := chromedp.Run(ctx, chromedp.Evaluate[map[string]float64](fmt.Sprintf(`inspector.screenOf(%q)`, w.c.String())))
	require.NoError(t, err, "find entity c on the canvas")
	run("click entity c on the canvas", chromedp.MouseClickXY(xy["x"], xy["y"]))
	until("its self shows", `!!document.querySelector('#detail .instance[data-script="reader"] .value[data-key="seen"]')`)
	assert.Equal(t, "1", text(`#detail .instance[data-script="reader"] .value[data-key="seen"]`))

	click("select the faulty entity", fmt.Sprintf(`#entity-list li[data-id="%s"]`, w.b.String()))
	until("its fault shows with file:line", `(document.querySelector('#detail .instance[data-script="faulty"] .fault') || {}).textContent?.includes("faulty.lua:6")`)
	until("the error log shows it", `document.getElementById("log").textContent.includes("broken on purpose")`)

	run("filter by tag", chromedp.SendKeys(chromedp.ID("filter-tag"), "blue"))
	until("the list shows the blue ones", `document.querySelectorAll("#entity-list li[data-id]").length === 13`)
	run("clear the filter", chromedp.SendKeys(chromedp.ID("filter-tag"), strings.Repeat(kb.Backspace, 4)), chromedp.SendKeys(chromedp.ID("filter-name"), "walker"))
	until("the list shows the walkers", `document.querySelectorAll("#entity-list li[data-id]").length === 24`)
	run("clear the name filter", chromedp.SendKeys(chromedp.ID("filter-name"), strings.Repeat(kb.Backspace, 6)))
	until("the list shows every entity", `document.querySelectorAll("#entity-list li[data-id]").length === 27`)

	run("set a blackboard key", chromedp.SendKeys(chromedp.ID("bb-key"), "boss"),
		chromedp.SendKeys(chromedp.ID("bb-value"), `{"hp": 3}`), chromedp.Click(chromedp.CSS("#bb-add button")))
	until("the blackboard shows it", `document.getElementById("blackboard").textContent.includes('{"hp":3}')`)
	assert.Equal(t, map[string]any{"hp": 3.0}, w.get("/api/blackboard")["blackboard"].(map[string]any)["boss"])

	run("resume", chromedp.Click(chromedp.ID("resume")))
	until("running again", fmt.Sprintf(`Number(document.body.dataset.frame) > %d`, f+5))
	until("the chart has lines", `document.getElementById("chart-legend").textContent.includes("orbit")`)
	screenshot(t, ctx, w.b)
}

// clickWhenThere waits for the element sel selects and clicks it; a
// click that finds the element replaced by the page's refresh meanwhile
// is tried again.
func clickWhenThere(ctx context.Context, sel string) error {
	var err error
	for range 10 {
		if err = chromedp.Do(ctx, chromedp.WaitVisible(chromedp.CSS(sel)), chromedp.Click(chromedp.CSS(sel))); err == nil {
			return nil
		}
		if ctx.Err() != nil {
			return err
		}
		time.Sleep(20 * time.Millisecond)
	}
	return err
}

// openBrowser starts headless Chromium for the test and returns its tab's
// context, which ends with the test or after 90 seconds. Without
// Chromium the test skips, except under CI, where it fails.
func openBrowser(t *testing.T) context.Context {
	t.Helper()
	browser := findBrowser()
	if browser == "" {
		msg := "no Chromium found (install Debian's chromium package, or set " + browserEnv + ")"
		if os.Getenv("CI") != "" {
			t.Fatal(msg)
		}
		t.Skip(msg)
	}
	opts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(browser),
		chromedp.NoSandbox, // Chromium refuses to run as root with its sandbox
		chromedp.WindowSize(1400, 900),
	)
	actx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	t.Cleanup(cancelAlloc)
	tab, cancelTab := chromedp.NewContext(actx)
	t.Cleanup(cancelTab)
	// The first action starts the browser, which lives as long as the
	// context of that action: it gets no timeout, the others do.
	require.NoError(t, chromedp.Do(tab), "start %s", browser)
	ctx, cancel := context.WithTimeout(tab, 90*time.Second)
	t.Cleanup(cancel)
	return ctx
}

// TestBrowserReadOnly: the page of a read-only inspector offers no
// pause, step, resume, edit or console.
func TestBrowserReadOnly(t *testing.T) {
	w := newWorld(t, Options{ReadOnly: true}, 10*time.Millisecond)
	ctx := openBrowser(t)
	require.NoError(t, chromedp.Do(ctx, chromedp.Navigate(w.srv.URL+"/")))
	require.NoError(t, clickWhenThere(ctx, fmt.Sprintf(`#entity-list li[data-id="%s"]`, w.a.String())))
	require.NoError(t, chromedp.Do(ctx, chromedp.WaitVisible(chromedp.CSS(`#detail .value[data-key="speed"]`))))
	hidden, err := chromedp.Run(ctx, chromedp.Evaluate[[]bool](`["pause", "step", "resume", "console", "bb-add"].map((id) => document.getElementById(id).hidden)`))
	require.NoError(t, err)
	assert.Equal(t, []bool{true, true, true, true, true}, hidden)
	editable, err := chromedp.Run(ctx, chromedp.Evaluate[string](`document.querySelector('#detail .value[data-key="speed"]').title`))
	require.NoError(t, err)
	assert.Empty(t, editable, "a value offers editing")
}

// TestBrowserToken: on an address that needs the token for everything,
// the page opened with ?token= loads its files and reads the world.
func TestBrowserToken(t *testing.T) {
	w := newWorld(t, Options{Token: "t0ken", TokenForReads: true}, 10*time.Millisecond)
	ctx := openBrowser(t)
	require.NoError(t, chromedp.Do(ctx, chromedp.Navigate(w.srv.URL+"/?token=t0ken")))
	_, err := chromedp.Run(ctx, chromedp.Poll[bool](`document.getElementById("entity-count").textContent === "3" && document.querySelectorAll("#entity-list li[data-id]").length === 3`,
		chromedp.WithPollingTimeout(20*time.Second)))
	require.NoError(t, err, "the page shows the world")
	pause, err := chromedp.Run(ctx, chromedp.Evaluate[string](`getComputedStyle(document.getElementById("pause")).borderRadius`))
	require.NoError(t, err)
	assert.Equal(t, "4px", pause, "the stylesheet loaded")
}

// screenshot keeps a picture of the page, with entity e selected: in the
// file $LUAHOST_SCREENSHOT, or else in the test's temporary folder.
func screenshot(t *testing.T, ctx context.Context, e runtime.Handle) {
	t.Helper()
	path := os.Getenv(screenshotEnv)
	if path == "" {
		path = filepath.Join(t.TempDir(), "inspector.png")
	}
	require.NoError(t, clickWhenThere(ctx, fmt.Sprintf(`#entity-list li[data-id="%s"]`, e)))
	require.NoError(t, chromedp.Do(ctx, chromedp.Sleep(time.Second)))
	png, err := chromedp.Run(ctx, chromedp.CaptureScreenshot())
	require.NoError(t, err)
	require.NotEmpty(t, png)
	require.NoError(t, os.WriteFile(path, png, 0o644))
	t.Logf("screenshot: %s", path)
}

// frameOf reads a frame number shown on the page.
func frameOf(t *testing.T, s string) int {
	t.Helper()
	n, err := strconv.Atoi(s)
	require.NoError(t, err, "frame %q", s)
	return n
}

// TestBrowserMissing: without Chromium (and without CI set) the browser
// tests skip, saying why.
func TestBrowserMissing(t *testing.T) {
	t.Setenv("PATH", t.TempDir())
	t.Setenv(browserEnv, "")
	t.Setenv("CI", "")
	var sub *testing.T
	t.Run("no browser", func(t *testing.T) {
		sub = t
		openBrowser(t)
		t.Error("the test ran without a browser")
	})
	assert.True(t, sub.Skipped())
}
