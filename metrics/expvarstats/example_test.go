package expvarstats_test

import (
	"encoding/json"
	"expvar"
	"fmt"
	"log"

	"github.com/luahost/luahost/luabind"
	"github.com/luahost/luahost/metrics/expvarstats"
	"github.com/luahost/luahost/runtime"
)

// ExampleVar publishes a host's counters with expvar (served on
// /debug/vars by expvar's handler) and reads them back.
func ExampleVar() {
	rt := runtime.New(runtime.Options{Seed: 1})
	host, err := luabind.New(rt, luabind.Options{Dir: "testdata"})
	if err != nil {
		log.Fatal(err)
	}
	defer host.Close()
	e := rt.Spawn()
	if _, err := host.Attach(e, "spinner", nil); err != nil {
		log.Fatal(err)
	}
	_ = rt.Activate(e)
	expvar.Publish("world", expvarstats.Var(host))
	for range 3 {
		_ = rt.Step(1.0 / 30)
	}
	var v struct {
		Frames   int `json:"frames"`
		Entities int `json:"entities"`
		Script   map[string]struct {
			Calls int `json:"calls"`
		} `json:"script"`
	}
	if err := json.Unmarshal([]byte(expvar.Get("world").String()), &v); err != nil {
		log.Fatal(err)
	}
	fmt.Println("frames", v.Frames, "entities", v.Entities, "spinner calls", v.Script["spinner"].Calls)
	// Output:
	// frames 3 entities 1 spinner calls 3
}
