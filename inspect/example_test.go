package inspect_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"testing/fstest"

	"github.com/luahost/luahost/inspect"
	"github.com/luahost/luahost/luabind"
	"github.com/luahost/luahost/runtime"
)

// An embedder mounts the inspector on its own mux under a prefix. Its
// requests are served by the goroutine that drives the world: at the end
// of every Step, and here, between frames, through Pending and Drain.
func Example() {
	scripts := fstest.MapFS{"spinner.lua": {Data: []byte(`
return {
  properties = { speed = 90, angle = 0 },
  onUpdate = function(self, ctx, dt) self.angle = self.angle + self.speed * dt end,
}`)}}
	rt := runtime.New(runtime.Options{Seed: 1})
	host, err := luabind.New(rt, luabind.Options{FS: scripts})
	if err != nil {
		panic(err)
	}
	defer host.Close()
	for range 3 {
		e := rt.Spawn()
		if _, err := host.Attach(e, "spinner", nil); err != nil {
			panic(err)
		}
		_ = rt.Activate(e)
	}
	in, err := inspect.New(host, inspect.Options{})
	if err != nil {
		panic(err)
	}
	mux := http.NewServeMux()
	mux.Handle("/inspect/", http.StripPrefix("/inspect", in))
	srv := httptest.NewServer(mux)
	defer srv.Close()
	for range 2 {
		_ = rt.Step(1.0 / 60)
	}

	// A client asks while the world waits between frames.
	answer := make(chan map[string]any)
	go func() {
		resp, err := http.Get(srv.URL + "/inspect/api/world")
		if err != nil {
			panic(err)
		}
		defer resp.Body.Close()
		var world map[string]any
		_ = json.NewDecoder(resp.Body).Decode(&world)
		answer <- world
	}()
	for {
		select {
		case <-in.Pending():
			in.Drain()
			continue
		case world := <-answer:
			fmt.Println("frame", world["frame"], "entities", world["entities"], "instances", world["instances"], "paused", world["paused"])
		}
		break
	}
	// Output: frame 2 entities 3 instances 3 paused false
}
