// Package expvarstats exports a luahost Host's counters through the
// standard library's expvar, which serves them as JSON on /debug/vars.
// Importing it imports expvar, which registers that handler on
// http.DefaultServeMux.
//
// The variable's value, read from Stats at each request (safe from the
// serving goroutine: see luabind.Host.Stats):
//
//	{"scripts": 2, "reloads": 0, "frames": 3, "entities": 3, "instances": 3,
//	 "runtime_errors": 1, "spawns": 3, "kills": 0, "lua_memory_bytes": 81920,
//	 "frame_seconds": {"count": 3, "sum": 0.0004, "buckets": {"0.001": 3, ..., "+Inf": 3}},
//	 "script": {"spinner": {"calls": 6, "errors": 0, "faults": 0, "reloads": 0, "seconds": 0.00001,
//	   "callbacks": {"onUpdate": {"calls": 6, "errors": 0, "seconds": 0.00001}}}}}
//
// Times are in seconds; the histogram's buckets are cumulative, keyed by
// their upper bound, as Prometheus counts them.
package expvarstats

import (
	"expvar"
	"strconv"

	"github.com/luahost/luahost/luabind"
)

// Var returns an expvar variable whose value is h's Stats in the form
// above. Publish it under a name of the embedder's choice:
//
//	expvar.Publish("luahost", expvarstats.Var(host))
func Var(h *luabind.Host) expvar.Var {
	return expvar.Func(func() any { return value(h.Stats()) })
}

// Publish publishes Var(h) as name; like expvar.Publish, it panics when
// name is already published.
func Publish(name string, h *luabind.Host) { expvar.Publish(name, Var(h)) }

type stats struct {
	Scripts       int               `json:"scripts"`
	Reloads       int               `json:"reloads"`
	Frames        uint64            `json:"frames"`
	Entities      int               `json:"entities"`
	Instances     int               `json:"instances"`
	RuntimeErrors int               `json:"runtime_errors"`
	Spawns        uint64            `json:"spawns"`
	Kills         uint64            `json:"kills"`
	Memory        int64             `json:"lua_memory_bytes"`
	FrameSeconds  histogram         `json:"frame_seconds"`
	Script        map[string]script `json:"script"`
}

type histogram struct {
	Count   uint64            `json:"count"`
	Sum     float64           `json:"sum"`
	Buckets map[string]uint64 `json:"buckets"`
}

type script struct {
	Calls     int64               `json:"calls"`
	Errors    int64               `json:"errors"`
	Faults    int64               `json:"faults"`
	Reloads   int64               `json:"reloads"`
	Seconds   float64             `json:"seconds"`
	Callbacks map[string]callback `json:"callbacks"`
}

type callback struct {
	Calls   int64   `json:"calls"`
	Errors  int64   `json:"errors"`
	Seconds float64 `json:"seconds"`
}

func value(s luabind.Stats) stats {
	v := stats{Scripts: s.Scripts, Reloads: s.Reloads, Frames: s.Runtime.Frames, Entities: s.Runtime.Entities,
		Instances: s.Runtime.Instances, RuntimeErrors: s.Runtime.Errors, Spawns: s.Runtime.Spawns, Kills: s.Runtime.Kills,
		Memory: s.Memory, Script: make(map[string]script, len(s.Timing)),
		FrameSeconds: histogram{Count: s.FrameTimes.Count, Sum: s.FrameTimes.Sum.Seconds(), Buckets: make(map[string]uint64)}}
	var cum uint64
	for i, b := range luabind.FrameBounds() {
		cum += s.FrameTimes.Buckets[i]
		v.FrameSeconds.Buckets[strconv.FormatFloat(b.Seconds(), 'g', -1, 64)] = cum
	}
	v.FrameSeconds.Buckets["+Inf"] = s.FrameTimes.Count
	for _, sc := range s.Timing {
		out := script{Calls: sc.Calls, Errors: sc.Errors, Faults: sc.Faults, Reloads: sc.Reloads, Seconds: sc.Total.Seconds(),
			Callbacks: make(map[string]callback, len(sc.Callbacks))}
		for _, cb := range sc.Callbacks {
			out.Callbacks[cb.Callback] = callback{Calls: cb.Calls, Errors: cb.Errors, Seconds: cb.Total.Seconds()}
		}
		v.Script[sc.Script] = out
	}
	return v
}
