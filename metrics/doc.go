// Package metrics holds the exporters of a luahost Host's counters
// (luabind.Host.Stats) to the monitoring systems a Go server uses, each
// in a package of its own so that a program links only the one it
// imports:
//
//   - [github.com/luahost/luahost/metrics/promstats]: a Prometheus
//     collector (the only luahost package that imports the Prometheus
//     client library);
//   - [github.com/luahost/luahost/metrics/expvarstats]: an expvar
//     variable (importing expvar registers its /debug/vars handler on
//     http.DefaultServeMux, which is why luabind itself does not).
//
// Both read Stats, which is safe from any goroutine: a scrape never waits
// for a frame, and a frame never waits for a scrape longer than it takes
// to copy the counters (O(scripts)). Every counter only grows, also when
// callback timing is sampled, so rates computed from them are sound.
package metrics
