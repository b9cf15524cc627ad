package luabind_test

import (
	"errors"
	"fmt"
	"io"
	"log"
	"log/slog"
	"os"
	"testing/fstest"

	"github.com/luahost/luahost/luabind"
	"github.com/luahost/luahost/runtime"
)

// scripts are the script files of the examples. A program keeps its
// scripts in a folder (Options.Dir) or embeds them (Options.FS with an
// embed.FS); the examples keep them in memory.
var scripts = fstest.MapFS{
	"greeter.lua": {Data: []byte(`
return {
  properties = { greeting = "hello", frames = 0 },
  onCreate = function(self, ctx)
    print(self.greeting .. " from " .. ctx.entity:id())
  end,
  onUpdate = function(self, ctx, dt)
    self.frames = self.frames + 1
    print(string.format("frame %d: %s (dt %.2f)", ctx.frame, self.greeting, dt))
  end,
  onDestroy = function(self, ctx)
    print(self.greeting .. " leaves after " .. self.frames .. " frames")
  end,
}`)},
	"banker.lua": {Data: []byte(`
return {
  onCreate = function(self, ctx)
    local receipt = deposit(ctx.entity:name(), 25)
    print("balance", receipt.balance)
    local ok, err = pcall(deposit, "ghost", -1)
    print(err)
  end,
}`)},
	"miner.lua": {Data: []byte(`
return {
  properties = { gold = 0, pick = { level = 1 } },
  onUpdate = function(self, ctx)
    self.gold = self.gold + self.pick.level
  end,
}`)},
}

// ExampleNew runs a Lua script on a runtime: New binds a host to the
// runtime, Attach gives an entity a script (its onCreate runs at once),
// every Step runs each instance's onUpdate, and Close destroys everything.
func ExampleNew() {
	rt := runtime.New(runtime.Options{Seed: 1})
	host, err := luabind.New(rt, luabind.Options{FS: scripts})
	if err != nil {
		log.Fatal(err)
	}
	e := rt.Spawn()
	if _, err := host.Attach(e, "greeter", nil); err != nil {
		log.Fatal(err)
	}
	if err := rt.Activate(e); err != nil {
		log.Fatal(err)
	}
	for range 2 {
		if err := rt.Step(0.25); err != nil {
			log.Fatal(err)
		}
	}
	if err := host.Close(); err != nil {
		log.Fatal(err)
	}
	// Output:
	// hello from entity(1:1)
	// frame 1: hello (dt 0.25)
	// frame 2: hello (dt 0.25)
	// hello leaves after 2 frames
}

// ExampleHost_Attach overrides a script's properties for one instance.
func ExampleHost_Attach() {
	rt := runtime.New(runtime.Options{})
	host, err := luabind.New(rt, luabind.Options{FS: scripts})
	if err != nil {
		log.Fatal(err)
	}
	for _, greeting := range []string{"ahoy", "salut"} {
		if _, err := host.Attach(rt.Spawn(), "greeter", map[string]any{"greeting": greeting}); err != nil {
			log.Fatal(err)
		}
	}
	host.Flush()
	_, err = host.Attach(rt.Spawn(), "nope", nil)
	fmt.Println(err)
	_ = host.Close()
	// Output:
	// ahoy from entity(1:1)
	// salut from entity(2:1)
	// scripts/nope.lua: script "nope" not found
	// ahoy leaves after 0 frames
	// salut leaves after 0 frames
}

// ExampleHost_Register exposes a Go function to every script. Arguments
// and results are plain data; a returned error is a Lua error.
func ExampleHost_Register() {
	rt := runtime.New(runtime.Options{})
	host, err := luabind.New(rt, luabind.Options{FS: scripts})
	if err != nil {
		log.Fatal(err)
	}
	defer host.Close()
	balances := map[string]float64{}
	err = host.Register("deposit", func(_ *runtime.Instance, args []any) (any, error) {
		who, _ := args[0].(string)
		amount, _ := args[1].(float64)
		if amount <= 0 {
			return nil, errors.New("amount must be positive")
		}
		balances[who] += amount
		return struct {
			Balance float64 `json:"balance"`
		}{balances[who]}, nil
	})
	if err != nil {
		log.Fatal(err)
	}
	e := rt.Spawn()
	_ = rt.SetName(e, "alice")
	if _, err := host.Attach(e, "banker", nil); err != nil {
		log.Fatal(err)
	}
	host.Flush()
	fmt.Println("Go sees", balances["alice"])
	// Output:
	// balance	25
	// scripts/banker.lua:6: deposit: amount must be positive
	// Go sees 25
}

// ExampleHost_Reload swaps a script's code between frames; every instance
// keeps its state. Reload also loads a script from source the first time.
func ExampleHost_Reload() {
	rt := runtime.New(runtime.Options{})
	host, err := luabind.New(rt, luabind.Options{FS: scripts, Log: io.Discard})
	if err != nil {
		log.Fatal(err)
	}
	defer host.Close()
	v1 := `return { onUpdate = function(self) self.n = (self.n or 0) + 1 print("v1", self.n) end }`
	v2 := `return { onUpdate = function(self) self.n = self.n + 10 print("v2", self.n) end }`
	if err := host.Reload("counter", []byte(v1)); err != nil {
		log.Fatal(err)
	}
	e := rt.Spawn()
	if _, err := host.Attach(e, "counter", nil); err != nil {
		log.Fatal(err)
	}
	_ = rt.Activate(e)
	_ = rt.Step(0.1)
	if err := host.Reload("counter", []byte(v2)); err != nil {
		log.Fatal(err)
	}
	_ = rt.Step(0.1)
	err = host.Reload("counter", []byte(`return {`))
	fmt.Println(err)
	_ = rt.Step(0.1)
	// Output:
	// v1	1
	// v2	11
	// scripts/counter.lua:1: '}' expected near <eof> (reload refused: the previous version of counter keeps running)
	// v2	21
}

// ExampleHost_Close shows shutdown: every remaining instance gets its
// onDestroy, in schedule order, then the Lua states are closed.
func ExampleHost_Close() {
	rt := runtime.New(runtime.Options{})
	host, err := luabind.New(rt, luabind.Options{FS: scripts})
	if err != nil {
		log.Fatal(err)
	}
	for _, greeting := range []string{"first", "second"} {
		e := rt.Spawn()
		if _, err := host.Attach(e, "greeter", map[string]any{"greeting": greeting}); err != nil {
			log.Fatal(err)
		}
		_ = rt.Activate(e)
	}
	_ = rt.Step(0.5)
	if err := host.Close(); err != nil {
		log.Fatal(err)
	}
	fmt.Println(rt.Stats().Entities, "entities left")
	// Output:
	// first from entity(1:1)
	// second from entity(2:1)
	// frame 1: first (dt 0.50)
	// frame 1: second (dt 0.50)
	// first leaves after 1 frames
	// second leaves after 1 frames
	// 0 entities left
}

// ExampleHost_Self reads and writes a script's state from Go between
// frames: Self copies self out as plain data, SetSelf writes one key (Go
// structs and maps are plain data too), and Instances finds every
// instance of a script.
func ExampleHost_Self() {
	rt := runtime.New(runtime.Options{})
	host, err := luabind.New(rt, luabind.Options{FS: scripts})
	if err != nil {
		log.Fatal(err)
	}
	defer host.Close()
	for range 2 {
		e := rt.Spawn()
		if _, err := host.Attach(e, "miner", nil); err != nil {
			log.Fatal(err)
		}
		_ = rt.Activate(e)
	}
	_ = rt.Step(0.1)
	type pick struct {
		Level int `json:"level"`
	}
	first := true
	for inst := range host.Instances("miner") {
		if first {
			if err := host.SetSelf(inst, "pick", pick{Level: 5}); err != nil {
				log.Fatal(err)
			}
			first = false
		}
	}
	_ = rt.Step(0.1)
	for inst := range host.Instances("miner") {
		self, err := host.Self(inst)
		if err != nil {
			log.Fatal(err)
		}
		fmt.Println(inst.Entity(), runtime.FormatPlain(self.Get("gold")), runtime.FormatPlain(self.Get("pick")))
	}
	// Output:
	// entity(1:1) 6 {level=5}
	// entity(2:1) 2 {level=1}
}

// ExampleOptions_onReload observes reloads, applied or refused, and logs
// through log/slog: ctx.log lines and script errors carry the script,
// entity and frame as attributes.
func ExampleOptions_onReload() {
	logger := slog.New(slog.NewTextHandler(os.Stdout, &slog.HandlerOptions{
		ReplaceAttr: func(_ []string, a slog.Attr) slog.Attr {
			if a.Key == slog.TimeKey || a.Key == "duration" || a.Key == "traceback" {
				return slog.Attr{}
			}
			return a
		},
	}))
	rt := runtime.New(runtime.Options{Logger: logger})
	host, err := luabind.New(rt, luabind.Options{FS: scripts, OnReload: func(ri luabind.ReloadInfo) {
		fmt.Printf("reload %s: %d instances, refused: %v\n", ri.Script, ri.Instances, ri.Err != nil)
	}})
	if err != nil {
		log.Fatal(err)
	}
	defer host.Close()
	src := `return { onUpdate = function(self, ctx) ctx.log("tick") if ctx.frame == 2 then error("out of ticks") end end }`
	_ = host.Reload("clock", []byte(src))
	e := rt.Spawn()
	_, _ = host.Attach(e, "clock", nil)
	_ = rt.Activate(e)
	_ = rt.Step(0.1)
	_ = rt.Step(0.1)
	_ = host.Reload("clock", []byte(src))
	_ = host.Reload("clock", []byte(`return {`))
	// Output:
	// level=INFO msg=tick script=clock entity=entity(1:1) frame=1
	// level=INFO msg=tick script=clock entity=entity(1:1) frame=2
	// level=ERROR msg="scripts/clock.lua:1: out of ticks" script=clock entity=entity(1:1) frame=2 callback=onUpdate file=scripts/clock.lua line=1
	// level=INFO msg="reloaded scripts/clock.lua" script=clock frame=2 instances=1
	// reload clock: 1 instances, refused: false
	// reload clock: 0 instances, refused: true
}
