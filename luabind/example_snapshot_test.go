package luabind_test

import (
	"fmt"
	"log"
	"testing/fstest"

	"github.com/luahost/luahost/luabind"
	"github.com/luahost/luahost/runtime"
	"github.com/luahost/luahost/snapshot"
)

// travellers are the script files of the snapshot examples.
var travellers = fstest.MapFS{
	"walker.lua": {Data: []byte(`
return {
  properties = { steps = 0 },
  onCreate = function(self, ctx) ctx.every(0.5, "rest") end,
  onUpdate = function(self, ctx) self.steps = self.steps + 1 end,
  rest = function(self, ctx) print(ctx.entity:name() .. " rests after " .. self.steps .. " steps") end,
  onRestore = function(self, ctx) print(ctx.entity:name() .. " restored at frame " .. ctx.frame) end,
  onExport = function(self, ctx) print(ctx.entity:name() .. " leaves with " .. self.steps .. " steps") end,
  onImport = function(self, ctx) print(ctx.entity:name() .. " arrives as " .. ctx.entity:id()) end,
}`)},
}

// newTravellerWorld returns a runtime and host on travellers.
func newTravellerWorld() (*runtime.Runtime, *luabind.Host) {
	rt := runtime.New(runtime.Options{Seed: 1})
	host, err := luabind.New(rt, luabind.Options{FS: travellers})
	if err != nil {
		log.Fatal(err)
	}
	return rt, host
}

// ExampleHost_Snapshot saves a world between frames and continues it in
// a fresh runtime and host: no onCreate, then onRestore; self and timers
// go on where they were.
func ExampleHost_Snapshot() {
	rt, host := newTravellerWorld()
	e := rt.Spawn()
	_ = rt.SetName(e, "ada")
	if _, err := host.Attach(e, "walker", nil); err != nil {
		log.Fatal(err)
	}
	_ = rt.Activate(e)
	for range 3 {
		_ = rt.Step(0.25)
	}
	snap, err := host.Snapshot()
	if err != nil {
		log.Fatal(err)
	}
	data, err := snap.Marshal()
	if err != nil {
		log.Fatal(err)
	}
	host.Flush()

	rt2, host2 := newTravellerWorld()
	defer host2.Close()
	snap, err = snapshot.Parse(data)
	if err != nil {
		log.Fatal(err)
	}
	if err := host2.Restore(snap); err != nil {
		log.Fatal(err)
	}
	for range 2 {
		_ = rt2.Step(0.25)
	}
	fmt.Println("same handle:", rt2.Alive(e))
	// Output:
	// ada rests after 1 steps
	// ada restored at frame 3
	// ada rests after 3 steps
	// same handle: true
}

// ExampleHost_Export moves an entity from one world to another: it leaves
// without onDestroy and arrives without onCreate, with its state and
// timers, under a new handle.
func ExampleHost_Export() {
	rtA, hostA := newTravellerWorld()
	defer hostA.Close()
	rtB, hostB := newTravellerWorld()
	defer hostB.Close()
	rtB.Spawn()
	e := rtA.Spawn()
	_ = rtA.SetName(e, "bo")
	if _, err := hostA.Attach(e, "walker", nil); err != nil {
		log.Fatal(err)
	}
	_ = rtA.Activate(e)
	_ = rtA.Step(0.25)
	moved, err := hostA.Export(e)
	if err != nil {
		log.Fatal(err)
	}
	hostA.Flush()
	if _, err := hostB.Import(moved); err != nil {
		log.Fatal(err)
	}
	_ = rtB.Step(0.25)
	hostB.Flush()
	fmt.Println("still in A:", rtA.Alive(e))
	// Output:
	// bo leaves with 1 steps
	// bo arrives as entity(2:1)
	// bo rests after 1 steps
	// still in A: false
}
