package promstats_test

import (
	"fmt"
	"io"
	"log"
	"net/http"
	"net/http/httptest"
	"strings"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/promhttp"

	"github.com/luahost/luahost/luabind"
	"github.com/luahost/luahost/metrics/promstats"
	"github.com/luahost/luahost/runtime"
)

// ExampleNew exports a host's counters on a /metrics endpoint, as a
// server does, and scrapes it once.
func ExampleNew() {
	rt := runtime.New(runtime.Options{Seed: 1})
	host, err := luabind.New(rt, luabind.Options{Dir: "testdata"})
	if err != nil {
		log.Fatal(err)
	}
	defer host.Close()
	for range 2 {
		e := rt.Spawn()
		if _, err := host.Attach(e, "spinner", nil); err != nil {
			log.Fatal(err)
		}
		_ = rt.Activate(e)
	}
	reg := prometheus.NewRegistry()
	reg.MustRegister(promstats.New(host, promstats.Options{Labels: prometheus.Labels{"zone": "north"}}))
	srv := httptest.NewServer(promhttp.HandlerFor(reg, promhttp.HandlerOpts{}))
	defer srv.Close()

	for range 30 {
		_ = rt.Step(1.0 / 30)
	}
	resp, err := http.Get(srv.URL)
	if err != nil {
		log.Fatal(err)
	}
	defer resp.Body.Close()
	body, _ := io.ReadAll(resp.Body)
	for _, line := range strings.Split(string(body), "\n") {
		if strings.HasPrefix(line, "luahost_script_calls_total") || strings.HasPrefix(line, "luahost_entities") ||
			strings.HasPrefix(line, "luahost_frame_seconds_count") {
			fmt.Println(line)
		}
	}
	// Output:
	// luahost_entities{zone="north"} 2
	// luahost_frame_seconds_count{zone="north"} 30
	// luahost_script_calls_total{callback="onUpdate",script="spinner",zone="north"} 60
}
