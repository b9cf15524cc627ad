package inspect

import (
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestAPI calls every endpoint of a world served between frames, with
// good and junk input: each answer's status, and what its JSON says.
func TestAPI(t *testing.T) {
	w := newWorld(t, Options{}, 0)
	a, b := url.PathEscape(w.a.String()), url.PathEscape(w.b.String())
	ids := func(out map[string]any) []string {
		var names []string
		for _, e := range out["entities"].([]any) {
			names = append(names, e.(map[string]any)["name"].(string))
		}
		return names
	}
	for _, tc := range []struct {
		name, method, path, body string
		status                   int
		check                    func(t *testing.T, out map[string]any)
	}{
		{"world", "GET", "/api/world", "", 200, func(t *testing.T, out map[string]any) {
			for _, k := range []string{"frame", "time", "entities", "instances", "paused"} {
				assert.Contains(t, out, k)
			}
			assert.Equal(t, 1.0, out["frame"])
			assert.Equal(t, 3.0, out["entities"])
			assert.Equal(t, 4.0, out["instances"])
			assert.Equal(t, false, out["paused"])
		}},
		{"entities", "GET", "/api/entities", "", 200, func(t *testing.T, out map[string]any) {
			assert.Equal(t, []string{"a", "b", "c"}, ids(out))
			e := out["entities"].([]any)[1].(map[string]any)
			assert.Equal(t, w.b.String(), e["id"])
			assert.Equal(t, "active", e["state"])
			assert.Equal(t, []any{"mover", "faulty"}, e["scripts"])
			assert.Len(t, e["position"], 3)
			assert.Equal(t, []any{"red"}, out["entities"].([]any)[0].(map[string]any)["tags"])
		}},
		{"entities by tag", "GET", "/api/entities?tag=red", "", 200, func(t *testing.T, out map[string]any) {
			assert.Equal(t, []string{"a"}, ids(out))
		}},
		{"entities by script", "GET", "/api/entities?script=mover", "", 200, func(t *testing.T, out map[string]any) {
			assert.Equal(t, []string{"a", "b"}, ids(out))
		}},
		{"entities by name and state", "GET", "/api/entities?name=c&state=active", "", 200, func(t *testing.T, out map[string]any) {
			assert.Equal(t, []string{"c"}, ids(out))
		}},
		{"entities matching nothing", "GET", "/api/entities?tag=none", "", 200, func(t *testing.T, out map[string]any) {
			assert.Equal(t, []any{}, out["entities"])
		}},
		{"entities by a bad state", "GET", "/api/entities?state=asleep", "", 400, nil},
		{"entity", "GET", "/api/entities/" + b, "", 200, func(t *testing.T, out map[string]any) {
			assert.Equal(t, "b", out["name"])
			assert.Equal(t, []any{1.0, 1.0, 1.0}, out["scale"])
			mover := instanceOf(t, out, "mover")
			assert.Equal(t, false, mover["faulted"])
			assert.Nil(t, mover["error"])
			self := mover["self"].(map[string]any)
			assert.Equal(t, 1.0, self["frames"])
			assert.Equal(t, []any{"a", "b"}, self["notes"])
			faulty := instanceOf(t, out, "faulty")
			assert.Equal(t, true, faulty["faulted"])
			assert.Contains(t, faulty["error"], "testdata/scripts/faulty.lua:6: broken on purpose")
			assert.Equal(t, 6.0, faulty["at"].(map[string]any)["line"])
			assert.Equal(t, "onUpdate", faulty["at"].(map[string]any)["callback"])
		}},
		{"entity as INDEX:GEN", "GET", "/api/entities/1:1", "", 200, func(t *testing.T, out map[string]any) {
			assert.Equal(t, "a", out["name"])
		}},
		{"unknown entity", "GET", "/api/entities/entity(99:1)", "", 404, nil},
		{"stale entity", "GET", "/api/entities/entity(1:7)", "", 404, nil},
		{"junk entity id", "GET", "/api/entities/junk", "", 400, nil},
		{"blackboard", "GET", "/api/blackboard", "", 200, func(t *testing.T, out map[string]any) {
			assert.Equal(t, map[string]any{"level": 1.0}, out["blackboard"])
		}},
		{"scripts", "GET", "/api/scripts", "", 200, func(t *testing.T, out map[string]any) {
			var names []string
			for _, s := range out["scripts"].([]any) {
				row := s.(map[string]any)
				names = append(names, row["script"].(string))
				for _, k := range []string{"instances", "calls", "totalMs", "maxMs", "frameMs"} {
					assert.Contains(t, row, k)
				}
			}
			assert.Equal(t, []string{"mover", "faulty", "reader"}, names)
		}},
		{"no such endpoint", "GET", "/api/nothing", "", 404, nil},
		{"no such page", "GET", "/secret.txt", "", 404, nil},
		{"file system path", "GET", "/../../go.mod", "", 404, nil},
		{"wrong method", "DELETE", "/api/world", "", 405, nil},
		{"GET of a POST endpoint", "GET", "/api/pause", "", 405, nil},
		{"self edit", "POST", "/api/entities/" + a + "/self", `{"script": "mover", "key": "speed", "value": 4}`, 200, func(t *testing.T, out map[string]any) {
			assert.Equal(t, 4.0, out["self"].(map[string]any)["speed"])
		}},
		{"self edit of the only instance", "POST", "/api/entities/" + a + "/self", `{"key": "notes", "value": {"x": [1, 2]}}`, 200, func(t *testing.T, out map[string]any) {
			assert.Equal(t, map[string]any{"x": []any{1.0, 2.0}}, out["self"].(map[string]any)["notes"])
		}},
		{"self edit removing a key", "POST", "/api/entities/" + a + "/self", `{"key": "notes", "value": null}`, 200, func(t *testing.T, out map[string]any) {
			assert.NotContains(t, out["self"], "notes")
		}},
		{"self edit, two Lua instances", "POST", "/api/entities/" + b + "/self", `{"key": "speed", "value": 1}`, 409, nil},
		{"self edit, no such script", "POST", "/api/entities/" + a + "/self", `{"script": "reader", "key": "x", "value": 1}`, 404, nil},
		{"self edit, unknown entity", "POST", "/api/entities/entity(50:1)/self", `{"key": "x", "value": 1}`, 404, nil},
		{"self edit, no key", "POST", "/api/entities/" + a + "/self", `{"value": 1}`, 400, nil},
		{"self edit, junk JSON", "POST", "/api/entities/" + a + "/self", `{"key": `, 400, nil},
		{"self edit, unknown field", "POST", "/api/entities/" + a + "/self", `{"key": "x", "valeu": 1}`, 400, nil},
		{"self edit, no body", "POST", "/api/entities/" + a + "/self", ``, 400, nil},
		{"self edit, two values", "POST", "/api/entities/" + a + "/self", `{"key": "x"} {}`, 400, nil},
		{"self edit, too deep", "POST", "/api/entities/" + a + "/self", `{"key": "x", "value": ` + strings.Repeat("[", 200) + strings.Repeat("]", 200) + `}`, 400, nil},
		{"blackboard edit", "POST", "/api/blackboard", `{"key": "boss", "value": {"hp": 3}}`, 200, func(t *testing.T, out map[string]any) {
			assert.Equal(t, map[string]any{"hp": 3.0}, out["value"])
		}},
		{"blackboard edit, no key", "POST", "/api/blackboard", `{"value": 3}`, 400, nil},
		{"blackboard edit, a key twice", "POST", "/api/blackboard", `{"key": "boss", "value": {"hp": 3, "hp": 4}}`, 400, func(t *testing.T, out map[string]any) {
			assert.Equal(t, `bad JSON body: key "hp" is given twice in one object`, out["error"])
		}},
		{"self edit, a field twice", "POST", "/api/entities/" + a + "/self", `{"key": "speed", "value": 1, "key": "x"}`, 400, nil},
		{"self edit, same keys in sibling objects", "POST", "/api/entities/" + a + "/self", `{"key": "notes", "value": [{"x": 1}, {"x": 2}]}`, 200, nil},
		{"blackboard edit, junk", "POST", "/api/blackboard", `[1, 2]`, 400, nil},
		{"eval", "POST", "/api/eval", `{"entity": "` + w.a.String() + `", "code": "print('at', ctx.entity:name()) return self.speed * 2"}`, 200, func(t *testing.T, out map[string]any) {
			assert.Equal(t, "at\ta\n", out["output"])
			assert.Equal(t, "8", out["result"])
			assert.Nil(t, out["error"])
		}},
		{"eval with error", "POST", "/api/eval", `{"entity": "` + w.b.String() + `", "script": "faulty", "code": "local x\nreturn x.y"}`, 200, func(t *testing.T, out map[string]any) {
			assert.Contains(t, out["error"], "console:2: attempt to index")
			assert.Equal(t, 2.0, out["line"])
			assert.Equal(t, "", out["result"])
		}},
		{"eval, unknown entity", "POST", "/api/eval", `{"entity": "entity(40:2)", "code": "1"}`, 404, nil},
		{"eval, bad entity", "POST", "/api/eval", `{"entity": "(", "code": "1"}`, 400, nil},
		{"eval, no code", "POST", "/api/eval", `{"entity": "` + w.a.String() + `"}`, 400, nil},
		{"eval reading a file", "POST", "/api/eval", `{"entity": "` + w.a.String() + `", "code": "require('mover')"}`, 200, func(t *testing.T, out map[string]any) {
			assert.Contains(t, out["error"], "reads no files")
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			status, out := w.call(tc.method, tc.path, tc.body)
			assert.Equal(t, tc.status, status, "answer %v", out)
			if status >= 400 {
				assert.NotEmpty(t, out["error"], "a refusal without a message")
			}
			if tc.check != nil && status == tc.status {
				tc.check(t, out)
			}
		})
	}
	// The world survived every request.
	assert.Equal(t, 1.0, w.frame())
	assert.Equal(t, map[string]any{"hp": 3.0}, w.get("/api/blackboard")["blackboard"].(map[string]any)["boss"])
}

// TestPauseStepResume pauses a running world, steps it one frame at a
// time and resumes it, watching the frame number.
func TestPauseStepResume(t *testing.T) {
	w := newWorld(t, Options{}, 2*time.Millisecond)
	waitFrames(t, w, 3)
	paused := w.post("/api/pause", "")
	require.Equal(t, true, paused["paused"])
	f := paused["frame"].(float64)
	// No frame runs while paused: a few round trips through the world.
	for range 5 {
		time.Sleep(5 * time.Millisecond)
		assert.Equal(t, f, w.frame())
	}
	for i := 1; i <= 3; i++ {
		stepped := w.post("/api/step", "")
		assert.Equal(t, f+float64(i), stepped["frame"], "step %d", i)
		assert.Equal(t, f+float64(i), w.frame())
	}
	mover := instanceOf(t, w.get("/api/entities/"+url.PathEscape(w.a.String())), "mover")
	assert.Equal(t, f+3, mover["self"].(map[string]any)["frames"], "mover ran once a frame")

	status, out := w.call("POST", "/api/step", "")
	require.Equal(t, http.StatusOK, status, "%v", out)
	w.post("/api/resume", "")
	waitFrames(t, w, f+10)
	status, out = w.call("POST", "/api/step", "")
	assert.Equal(t, http.StatusConflict, status, "a step of a running world: %v", out)
}

// waitFrames polls /api/world until the frame number reaches n.
func waitFrames(t *testing.T, w *world, n float64) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for w.frame() < n {
		require.True(t, time.Now().Before(deadline), "the world did not reach frame %v", n)
		time.Sleep(2 * time.Millisecond)
	}
}

// TestEditShowsNextFrame edits a self and the blackboard of a paused
// world: the scripts see both in the next frame.
func TestEditShowsNextFrame(t *testing.T) {
	w := newWorld(t, Options{}, 2*time.Millisecond)
	w.post("/api/pause", "")
	a := "/api/entities/" + url.PathEscape(w.a.String())
	before := w.get(a)["position"].([]any)[0].(float64)
	w.post(a+"/self", `{"key": "speed", "value": 60}`)
	w.post("/api/blackboard", `{"key": "level", "value": 7}`)
	w.post("/api/step", "")
	after := w.get(a)["position"].([]any)[0].(float64)
	assert.InDelta(t, before+1, after, 1e-9, "speed 60 for 1/60 s")
	reader := instanceOf(t, w.get("/api/entities/"+url.PathEscape(w.c.String())), "reader")
	assert.Equal(t, 7.0, reader["self"].(map[string]any)["seen"])
}

// TestAccess checks the token, host and origin rules and read-only mode.
func TestAccess(t *testing.T) {
	const token = "s3cret"
	for _, tc := range []struct {
		name    string
		opts    Options
		method  string
		path    string
		header  []string
		status  int
		comment string
	}{
		{"no token: read", Options{}, "GET", "/api/world", nil, 200, ""},
		{"no token: post", Options{}, "POST", "/api/pause", nil, 200, ""},
		{"no token: page", Options{}, "GET", "/", nil, 200, ""},
		{"no token: foreign host", Options{}, "GET", "/api/world", []string{"Host", "evil.example:80"}, 403, "DNS rebinding"},
		{"no token: localhost", Options{}, "GET", "/api/world", []string{"Host", "localhost:7070"}, 200, ""},
		{"no token: cross-site post", Options{}, "POST", "/api/pause", []string{"Origin", "http://evil.example"}, 403, ""},
		{"token: read without it", Options{Token: token}, "GET", "/api/world", nil, 200, ""},
		{"token: post without it", Options{Token: token}, "POST", "/api/pause", nil, 401, ""},
		{"token: post with a wrong one", Options{Token: token}, "POST", "/api/pause", []string{"Authorization", "Bearer nope"}, 401, ""},
		{"token: post with it", Options{Token: token}, "POST", "/api/pause", []string{"Authorization", "Bearer " + token}, 200, ""},
		{"token: post with it in the query", Options{Token: token}, "POST", "/api/pause?token=" + token, nil, 200, ""},
		{"token: foreign host without it", Options{Token: token}, "GET", "/api/world", []string{"Host", "evil.example:80"}, 403, "DNS rebinding: a token does not turn the host check off"},
		{"token: foreign host's page without it", Options{Token: token}, "GET", "/", []string{"Host", "evil.example:80"}, 403, ""},
		{"token: any host with it", Options{Token: token}, "GET", "/api/world?token=" + token, []string{"Host", "box.lan:7070"}, 200, ""},
		{"token: cross-site post with it", Options{Token: token}, "POST", "/api/pause?token=" + token, []string{"Origin", "http://evil.example"}, 403, ""},
		{"no token: cross-site read", Options{}, "GET", "/api/world", []string{"Origin", "http://evil.example"}, 403, "the origin check applies to reads too"},
		{"no token: same-site read", Options{}, "GET", "/api/world", []string{"Origin", "http://localhost:7070", "Host", "localhost:7070"}, 200, ""},
		{"token for reads: read without it", Options{Token: token, TokenForReads: true}, "GET", "/api/world", nil, 401, ""},
		{"token for reads: page without it", Options{Token: token, TokenForReads: true}, "GET", "/", nil, 401, ""},
		{"token for reads: stream without it", Options{Token: token, TokenForReads: true}, "GET", "/api/stream", nil, 401, ""},
		{"token for reads: read with it", Options{Token: token, TokenForReads: true}, "GET", "/api/world?token=" + token, nil, 200, ""},
		{"read-only: read", Options{ReadOnly: true}, "GET", "/api/entities", nil, 200, ""},
		{"read-only: pause", Options{ReadOnly: true}, "POST", "/api/pause", nil, 403, ""},
		{"read-only: step", Options{ReadOnly: true}, "POST", "/api/step", nil, 403, ""},
		{"read-only: resume", Options{ReadOnly: true}, "POST", "/api/resume", nil, 403, ""},
		{"read-only: eval", Options{ReadOnly: true}, "POST", "/api/eval", nil, 403, ""},
		{"read-only: self", Options{ReadOnly: true}, "POST", "/api/entities/entity(1:1)/self", nil, 403, ""},
		{"read-only: blackboard", Options{ReadOnly: true}, "POST", "/api/blackboard", nil, 403, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			w := newWorld(t, tc.opts, 0)
			req, err := http.NewRequest(tc.method, w.srv.URL+tc.path, nil)
			require.NoError(t, err)
			for i := 0; i < len(tc.header); i += 2 {
				if tc.header[i] == "Host" {
					req.Host = tc.header[i+1]
				} else {
					req.Header.Set(tc.header[i], tc.header[i+1])
				}
			}
			resp, err := http.DefaultClient.Do(req)
			require.NoError(t, err)
			resp.Body.Close()
			assert.Equal(t, tc.status, resp.StatusCode, tc.comment)
		})
	}
	// The page opened with ?token= gets a cookie for its own files.
	w := newWorld(t, Options{Token: token, TokenForReads: true}, 0)
	resp, err := http.Get(w.srv.URL + "/?token=" + token)
	require.NoError(t, err)
	resp.Body.Close()
	require.Equal(t, http.StatusOK, resp.StatusCode)
	cookies := resp.Cookies()
	require.Len(t, cookies, 1)
	assert.Equal(t, http.SameSiteStrictMode, cookies[0].SameSite)
	assert.True(t, cookies[0].HttpOnly)
	for _, tc := range []struct {
		cookie string
		want   int
	}{{token, http.StatusOK}, {"nope", http.StatusUnauthorized}} {
		req, err := http.NewRequest("GET", w.srv.URL+"/inspect.js", nil)
		require.NoError(t, err)
		req.AddCookie(&http.Cookie{Name: cookies[0].Name, Value: tc.cookie})
		resp, err := http.DefaultClient.Do(req)
		require.NoError(t, err)
		resp.Body.Close()
		assert.Equal(t, tc.want, resp.StatusCode, "cookie %q", tc.cookie)
	}

	_, err = New(newWorld(t, Options{}, 0).host, Options{TokenForReads: true})
	assert.ErrorContains(t, err, "needs a Token")
}

// TestConcurrentClients hammers every read endpoint and the console from
// many clients while frames run (run with -race): every answer is 200
// and the world keeps its frame rate.
func TestConcurrentClients(t *testing.T) {
	w := newWorld(t, Options{}, time.Millisecond)
	a := url.PathEscape(w.a.String())
	paths := []string{"/api/world", "/api/entities", "/api/entities/" + a, "/api/blackboard", "/api/scripts", "/api/entities?tag=red"}
	var wg sync.WaitGroup
	errs := make(chan string, 100)
	for c := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range 25 {
				var resp *http.Response
				var err error
				if (c+i)%5 == 0 {
					resp, err = http.Post(w.srv.URL+"/api/eval", "application/json",
						strings.NewReader(fmt.Sprintf(`{"entity": %q, "code": "self.speed = %d"}`, w.a.String(), i)))
				} else {
					resp, err = http.Get(w.srv.URL + paths[(c+i)%len(paths)])
				}
				if err != nil {
					errs <- err.Error()
					return
				}
				resp.Body.Close()
				if resp.StatusCode != http.StatusOK {
					errs <- fmt.Sprintf("%s: %d", resp.Request.URL, resp.StatusCode)
				}
			}
		}()
	}
	start := w.frame()
	wg.Wait()
	close(errs)
	for e := range errs {
		t.Error(e)
	}
	waitFrames(t, w, start+5)
}

// TestClosedWorld answers 503 once the world is closed.
func TestClosedWorld(t *testing.T) {
	w := newWorld(t, Options{}, 0)
	w.close()
	srv := httptestServer(t, w.in)
	resp, err := http.Get(srv + "/api/world")
	require.NoError(t, err)
	resp.Body.Close()
	assert.Equal(t, http.StatusServiceUnavailable, resp.StatusCode)
}

// TestPageSelfContained: the page's files are served from the binary with
// their types, and name nothing outside it (no CDN: the machine may be
// offline).
func TestPageSelfContained(t *testing.T) {
	w := newWorld(t, Options{}, 0)
	for _, tc := range []struct{ path, file, ctype string }{
		{"/", "index.html", "text/html; charset=utf-8"},
		{"/inspect.css", "inspect.css", "text/css; charset=utf-8"},
		{"/inspect.js", "inspect.js", "text/javascript; charset=utf-8"},
	} {
		t.Run(tc.file, func(t *testing.T) {
			resp, err := http.Get(w.srv.URL + tc.path)
			require.NoError(t, err)
			body, err := io.ReadAll(resp.Body)
			resp.Body.Close()
			require.NoError(t, err)
			assert.Equal(t, http.StatusOK, resp.StatusCode)
			assert.Equal(t, tc.ctype, resp.Header.Get("Content-Type"))
			want, err := pageFiles.ReadFile("page/" + tc.file)
			require.NoError(t, err)
			assert.Equal(t, string(want), string(body))
			assert.NotRegexp(t, `https?://|src="//|href="//|@import`, string(body))
		})
	}
}

// TestErrorsAndRestart: GET /api/errors lists each distinct error with its
// count and frames; restarting the faulted instance gives it a fresh
// chance (it runs, and here fails, again in the next frame), and
// restarting one that is not faulted is a conflict.
func TestErrorsAndRestart(t *testing.T) {
	w := newWorld(t, Options{}, 2*time.Millisecond)
	w.post("/api/pause", "")
	errs := w.get("/api/errors")["errors"].([]any)
	require.Len(t, errs, 1)
	first := errs[0].(map[string]any)
	assert.Equal(t, "faulty", first["script"])
	assert.Equal(t, "onUpdate", first["callback"])
	assert.Contains(t, first["message"], "faulty.lua:6: broken on purpose")
	assert.Equal(t, 1.0, first["count"])
	assert.Equal(t, first["first"], first["last"])

	b := "/api/entities/" + url.PathEscape(w.b.String())
	restarted := w.post(b+"/restart", `{"script": "faulty"}`)
	assert.Equal(t, false, restarted["faulted"])
	assert.Nil(t, restarted["error"], "the old fault is cleared")
	w.post("/api/step", "")
	faulty := instanceOf(t, w.get(b), "faulty")
	assert.Equal(t, true, faulty["faulted"], "it ran, and failed, again")
	assert.Equal(t, 2.0, faulty["self"].(map[string]any)["tries"])
	again := w.get("/api/errors")["errors"].([]any)[0].(map[string]any)
	assert.Equal(t, 2.0, again["count"])
	assert.Greater(t, again["last"], again["first"])

	status, out := w.call("POST", b+"/restart", `{"script": "mover"}`)
	assert.Equal(t, http.StatusConflict, status, "%v", out)
}
