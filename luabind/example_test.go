package luabind_test

import (
	"errors"
	"fmt"
	"io"
	"log"

	"github.com/luahost/luahost/luabind"
	"github.com/luahost/luahost/runtime"
)

// ExampleNew runs a Lua script on a runtime: New binds a host to the
// runtime, Attach gives an entity a script (its onCreate runs at once),
// every Step runs each instance's onUpdate, and Close destroys everything.
func ExampleNew() {
	rt := runtime.New(runtime.Options{Seed: 1})
	host, err := luabind.New(rt, luabind.Options{Dir: "testdata/scripts"})
	if err != nil {
		log.Fatal(err)
	}
	e := rt.Spawn()
	if _, err := host.Attach(e, "example/greeter", nil); err != nil {
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
	host, err := luabind.New(rt, luabind.Options{Dir: "testdata/scripts"})
	if err != nil {
		log.Fatal(err)
	}
	for _, greeting := range []string{"ahoy", "salut"} {
		if _, err := host.Attach(rt.Spawn(), "example/greeter", map[string]any{"greeting": greeting}); err != nil {
			log.Fatal(err)
		}
	}
	host.Flush()
	_, err = host.Attach(rt.Spawn(), "example/nope", nil)
	fmt.Println(err)
	_ = host.Close()
	// Output:
	// ahoy from entity(1:1)
	// salut from entity(2:1)
	// testdata/scripts/example/nope.lua: script "example/nope" not found
	// ahoy leaves after 0 frames
	// salut leaves after 0 frames
}

// ExampleHost_Register exposes a Go function to every script. Arguments
// and results are plain data; a returned error is a Lua error.
func ExampleHost_Register() {
	rt := runtime.New(runtime.Options{})
	host, err := luabind.New(rt, luabind.Options{Dir: "testdata/scripts"})
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
		return map[string]any{"balance": balances[who]}, nil
	})
	if err != nil {
		log.Fatal(err)
	}
	e := rt.Spawn()
	_ = rt.SetName(e, "alice")
	if _, err := host.Attach(e, "example/banker", nil); err != nil {
		log.Fatal(err)
	}
	host.Flush()
	fmt.Println("Go sees", balances["alice"])
	// Output:
	// balance	25
	// testdata/scripts/example/banker.lua:6: deposit: amount must be positive
	// Go sees 25
}

// ExampleHost_Reload swaps a script's code between frames; every instance
// keeps its state.
func ExampleHost_Reload() {
	rt := runtime.New(runtime.Options{})
	host, err := luabind.New(rt, luabind.Options{Dir: "testdata/scripts", Log: io.Discard})
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
	// testdata/scripts/counter.lua:1: '}' expected near <eof> (reload refused: the previous version of counter keeps running)
	// v2	21
}

// ExampleHost_Close shows shutdown: every remaining instance gets its
// onDestroy, in schedule order, then the Lua states are closed.
func ExampleHost_Close() {
	rt := runtime.New(runtime.Options{})
	host, err := luabind.New(rt, luabind.Options{Dir: "testdata/scripts"})
	if err != nil {
		log.Fatal(err)
	}
	for _, greeting := range []string{"first", "second"} {
		e := rt.Spawn()
		if _, err := host.Attach(e, "example/greeter", map[string]any{"greeting": greeting}); err != nil {
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
