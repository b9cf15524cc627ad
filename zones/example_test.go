package zones_test

import (
	"io"
	"log"
	"os"
	"testing/fstest"

	"github.com/luahost/luahost/luabind"
	"github.com/luahost/luahost/runtime"
	"github.com/luahost/luahost/zones"
)

// runner walks one unit along x a frame and says where it is.
var runner = fstest.MapFS{"runner.lua": {Data: []byte(`
return {
  onUpdate = function(self, ctx)
    local x = ctx.entity:position()
    print(string.format("frame %d: x %d in zone %d", ctx.frame, x, ctx.entity:zone()))
    ctx.entity:setPosition(x + 1, 0, 0)
  end,
  onImport = function(self, ctx) print("arrived in zone " .. ctx.entity:zone()) end,
}`)}}

// ExampleNew cuts a world in two zones at x = 0, each its own runtime and
// host on its own goroutine, and walks an entity across the edge: after
// the frame whose commit puts it at x = 0, it moves to zone 1 with its
// state, and it is updated once in every frame.
func ExampleNew() {
	layout := zones.Layout{Edges: []float64{0}} // zone 0: x < 0; zone 1: x >= 0
	w, err := zones.New(zones.Options{Layout: layout, Stdout: os.Stdout}, func(zone int, out io.Writer, join func(*luabind.Host)) error {
		rt := runtime.New(runtime.Options{})
		h, err := luabind.New(rt, luabind.Options{FS: runner, Stdout: out})
		if err != nil {
			return err
		}
		join(h)
		if zone != 0 {
			return nil
		}
		at := runtime.Identity()
		at.Position.X = -2
		e := rt.SpawnAt(at)
		if _, err := h.Attach(e, "runner", nil); err != nil {
			return err
		}
		return rt.Activate(e)
	})
	if err != nil {
		log.Fatal(err)
	}
	for range 4 {
		if err := w.Step(1.0 / 60); err != nil {
			log.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		log.Fatal(err)
	}
	// Output:
	// frame 1: x -2 in zone 0
	// frame 2: x -1 in zone 0
	// arrived in zone 1
	// frame 3: x 0 in zone 1
	// frame 4: x 1 in zone 1
}
