package luabind_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log"
	"os"
	"path/filepath"
	"testing/fstest"
	"time"

	"github.com/luahost/luahost/luabind"
	"github.com/luahost/luahost/runtime"
	"github.com/luahost/luahost/snapshot"
)

// serverScripts are the Lua behaviours of the server examples.
var serverScripts = fstest.MapFS{
	"mover.lua": {Data: []byte(`
return {
  priority = 0,
  properties = { speed = 1 },
  onUpdate = function(self, ctx, dt)
    local x, y, z = ctx.entity:position()
    ctx.entity:setPosition(x + self.speed, y, z)
    print(ctx.frame, "lua mover", ctx.entity:name(), x + self.speed)
  end,
  onDestroy = function(self, ctx) print("mover of " .. ctx.entity:name() .. " stops") end,
}`)},
}

// health is a Go-native behaviour that saves: it implements
// runtime.Saver, so its instances are saved, restored and handed off
// like Lua instances.
type health struct{ trace bool }

type hp struct{ Points float64 }

func (health) Name() string  { return "go/health" }
func (health) Priority() int { return -1 }

func (s health) Update(inst *runtime.Instance, _ float64) error {
	d := inst.Data.(*hp)
	d.Points--
	if s.trace {
		name, _ := inst.Runtime().Name(inst.Entity())
		fmt.Println(inst.Runtime().Frame(), "go health", name, d.Points)
	}
	return nil
}

func (health) SaveData(data any) (any, error) { return data, nil }

func (health) LoadData(saved any) (any, error) {
	t, ok := saved.(*runtime.Table)
	if !ok {
		return nil, errors.New("health: want a table")
	}
	points, _ := t.Get("Points").(float64)
	return &hp{Points: points}, nil
}

func newServerWorld(seed int64) (*runtime.Runtime, *luabind.Host) {
	rt := runtime.New(runtime.Options{Seed: seed})
	host, err := luabind.New(rt, luabind.Options{FS: serverScripts})
	if err != nil {
		log.Fatal(err)
	}
	if err := host.RegisterScript(health{trace: true}); err != nil {
		log.Fatal(err)
	}
	return rt, host
}

// spawnUnit makes an Active entity called name with the Go health
// behaviour and the Lua mover.
func spawnUnit(rt *runtime.Runtime, host *luabind.Host, name string) runtime.Handle {
	e := rt.Spawn()
	_ = rt.SetName(e, name)
	if _, err := rt.Attach(e, health{trace: true}, &hp{Points: 10}); err != nil {
		log.Fatal(err)
	}
	if _, err := host.Attach(e, "mover", nil); err != nil {
		log.Fatal(err)
	}
	_ = rt.Activate(e)
	return e
}

// Example_mixedSchedule runs a Go-native behaviour and a Lua one in one
// schedule: the Go script's priority (-1) puts it before the Lua
// script (0) on every entity, every frame.
func Example_mixedSchedule() {
	rt, host := newServerWorld(1)
	defer host.Close()
	spawnUnit(rt, host, "ada")
	for range 2 {
		_ = rt.Step(1.0 / 30)
	}
	host.Flush()
	// Output:
	// 1 go health ada 9
	// 1	lua mover	ada	1
	// 2 go health ada 8
	// 2	lua mover	ada	2
	// mover of ada stops
}

// Example_handoffBetweenGoroutines runs two worlds, each driven by its
// own goroutine, and walks an entity from the first to the second: the
// first exports it between two of its frames, a channel carries the
// entity snapshot, and the second imports it between two of its frames.
// The Go-native behaviour moves with it, as its Saver methods say.
func Example_handoffBetweenGoroutines() {
	border := make(chan snapshot.Entity)
	arrived := make(chan struct{})
	go func() { // world A
		rt, host := newServerWorld(1)
		defer host.Close()
		e := spawnUnit(rt, host, "bo")
		_ = rt.Step(1.0 / 30)
		host.Flush()
		moved, err := host.Export(e)
		if err != nil {
			log.Fatal(err)
		}
		border <- moved
		<-arrived
	}()
	// World B, on this goroutine.
	rt, host := newServerWorld(2)
	defer host.Close()
	moved := <-border
	e, err := host.Import(moved)
	if err != nil {
		log.Fatal(err)
	}
	_ = rt.Step(1.0 / 30)
	host.Flush()
	close(arrived)
	fmt.Println("arrived as", e)
	// Output:
	// 1 go health bo 9
	// 1	lua mover	bo	1
	// 1 go health bo 8
	// 1	lua mover	bo	2
	// arrived as entity(1:1)
	// mover of bo stops
}

// Example_shutdown runs a server loop until its context is cancelled,
// then closes the host, which runs every onDestroy.
func Example_shutdown() {
	rt, host := newServerWorld(1)
	spawnUnit(rt, host, "cy")
	ctx, cancel := context.WithCancel(context.Background())
	// A signal handler would cancel (signal.NotifyContext); here the
	// world's third frame does.
	rt.AfterStep(func() {
		if rt.Frame() == 3 {
			cancel()
		}
	})
	tick := time.NewTicker(time.Millisecond)
	defer tick.Stop()
loop:
	for {
		select {
		case <-ctx.Done():
			break loop
		case <-tick.C:
			// StepContext also ends a frame that the cancel finds
			// running, with the world consistent.
			if err := rt.StepContext(ctx, 1.0/30); err != nil && ctx.Err() == nil {
				log.Fatal(err)
			}
		}
	}
	if err := host.Close(); err != nil {
		log.Fatal(err)
	}
	fmt.Println("shut down after frame", rt.Frame())
	// Output:
	// 1 go health cy 9
	// 1	lua mover	cy	1
	// 2 go health cy 8
	// 2	lua mover	cy	2
	// 3 go health cy 7
	// 3	lua mover	cy	3
	// mover of cy stops
	// shut down after frame 3
}

// ExampleHost_Watch reloads a script in a running server when its file
// changes: Watch notices the change, and the next Step applies the
// reload between frames; OnReload tells the server.
func ExampleHost_Watch() {
	dir, err := os.MkdirTemp("", "scripts")
	if err != nil {
		log.Fatal(err)
	}
	defer os.RemoveAll(dir)
	file := filepath.Join(dir, "greeter.lua")
	write := func(greeting string) {
		src := fmt.Sprintf("return { onUpdate = function(self, ctx) self.said = %q end }\n", greeting)
		if err := os.WriteFile(file, []byte(src), 0o644); err != nil {
			log.Fatal(err)
		}
	}
	write("hello")
	reloaded := make(chan luabind.ReloadInfo, 1)
	rt := runtime.New(runtime.Options{Seed: 1})
	host, err := luabind.New(rt, luabind.Options{Dir: dir, Log: io.Discard, OnReload: func(info luabind.ReloadInfo) { reloaded <- info }})
	if err != nil {
		log.Fatal(err)
	}
	defer host.Close()
	stop, err := host.Watch(context.Background())
	if err != nil {
		log.Fatal(err)
	}
	defer stop()
	e := rt.Spawn()
	inst, err := host.Attach(e, "greeter", nil)
	if err != nil {
		log.Fatal(err)
	}
	_ = rt.Activate(e)
	_ = rt.Step(1.0 / 30)
	write("bonjour")
	for {
		_ = rt.Step(1.0 / 30)
		select {
		case info := <-reloaded:
			_ = rt.Step(1.0 / 30)
			self, _ := host.Self(inst)
			fmt.Println(info.Script, "reloaded with", info.Instances, "instance;", "said:", self.Get("said"))
			return
		case <-time.After(10 * time.Millisecond):
		}
	}
	// Output:
	// greeter reloaded with 1 instance; said: bonjour
}
