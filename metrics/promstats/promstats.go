// Package promstats exports a luahost Host's counters as Prometheus
// metrics: a [Collector] to register with a prometheus.Registry. It is
// the only luahost package that imports the Prometheus client library.
//
// The metrics, with the namespace "luahost" by default:
//
//	luahost_script_calls_total{script,callback}    counter  callbacks run
//	luahost_script_errors_total{script,callback}   counter  callbacks that failed
//	luahost_script_seconds_total{script,callback}  counter  callbacks' time (estimated when sampled)
//	luahost_script_faults_total{script}            counter  instances faulted
//	luahost_script_reloads_total{script}           counter  hot reloads applied
//	luahost_scripts                                gauge    loaded scripts
//	luahost_reloads_total                          counter  hot reloads applied
//	luahost_entities                               gauge    live entities
//	luahost_instances                              gauge    live script instances
//	luahost_frames_total                           counter  frames run
//	luahost_runtime_errors_total                   counter  errors the runtime reported
//	luahost_spawns_total, luahost_kills_total      counter  entities spawned and killed
//	luahost_frame_seconds                          histogram  frame durations
//	luahost_lua_memory_bytes                       gauge    the Lua data's size at the last measure
//
// callback is one of onCreate, onUpdate, events, timers, onDestroy and
// onReload. Several hosts in one process (zones) are told apart by
// Options.Labels.
package promstats

import (
	"github.com/prometheus/client_golang/prometheus"

	"github.com/luahost/luahost/luabind"
)

// Options configures a Collector. The zero value works.
type Options struct {
	// Namespace prefixes every metric's name. The default (empty) value
	// is "luahost".
	Namespace string
	// Labels are constant labels added to every metric, such as
	// {"zone": "north"} for one of several hosts in a process. The
	// default (nil) value adds none.
	Labels prometheus.Labels
}

// Collector is a prometheus.Collector of one host's Stats. Each scrape
// reads Stats once (safe from the scraping goroutine: see
// luabind.Host.Stats) and costs O(scripts × callback kinds).
type Collector struct {
	stats func() luabind.Stats

	calls, errors, seconds, faults, scriptReloads *prometheus.Desc
	scripts, reloads, entities, instances, frames *prometheus.Desc
	runtimeErrors, spawns, kills, frameSeconds    *prometheus.Desc
	memory                                        *prometheus.Desc
	bounds                                        []float64
}

// New returns a collector of h's Stats.
func New(h *luabind.Host, opts Options) *Collector {
	return newCollector(h.Stats, opts)
}

func newCollector(stats func() luabind.Stats, opts Options) *Collector {
	ns := opts.Namespace
	if ns == "" {
		ns = "luahost"
	}
	desc := func(name, help string, labels ...string) *prometheus.Desc {
		return prometheus.NewDesc(prometheus.BuildFQName(ns, "", name), help, labels, opts.Labels)
	}
	c := &Collector{
		stats:         stats,
		calls:         desc("script_calls_total", "Callbacks run, by script and callback kind.", "script", "callback"),
		errors:        desc("script_errors_total", "Callbacks that failed, by script and callback kind.", "script", "callback"),
		seconds:       desc("script_seconds_total", "Time spent in callbacks (estimated from a sample unless timing is exact), by script and callback kind.", "script", "callback"),
		faults:        desc("script_faults_total", "Instances faulted, by script.", "script"),
		scriptReloads: desc("script_reloads_total", "Hot reloads applied, by script.", "script"),
		scripts:       desc("scripts", "Loaded scripts."),
		reloads:       desc("reloads_total", "Hot reloads applied."),
		entities:      desc("entities", "Live entities."),
		instances:     desc("instances", "Live script instances."),
		frames:        desc("frames_total", "Frames run."),
		runtimeErrors: desc("runtime_errors_total", "Errors the runtime reported."),
		spawns:        desc("spawns_total", "Entities spawned."),
		kills:         desc("kills_total", "Entities killed."),
		frameSeconds:  desc("frame_seconds", "Frame durations, each Step from its start to its end."),
		memory:        desc("lua_memory_bytes", "Size of the host's Lua data at its last measure (Host.MeasureMemory)."),
	}
	for _, b := range luabind.FrameBounds() {
		c.bounds = append(c.bounds, b.Seconds())
	}
	return c
}

// Describe sends every metric's description.
func (c *Collector) Describe(ch chan<- *prometheus.Desc) {
	for _, d := range []*prometheus.Desc{c.calls, c.errors, c.seconds, c.faults, c.scriptReloads, c.scripts, c.reloads,
		c.entities, c.instances, c.frames, c.runtimeErrors, c.spawns, c.kills, c.frameSeconds, c.memory} {
		ch <- d
	}
}

// Collect reads the host's Stats and sends every metric.
func (c *Collector) Collect(ch chan<- prometheus.Metric) {
	s := c.stats()
	counter := func(d *prometheus.Desc, v float64, labels ...string) {
		ch <- prometheus.MustNewConstMetric(d, prometheus.CounterValue, v, labels...)
	}
	gauge := func(d *prometheus.Desc, v float64) {
		ch <- prometheus.MustNewConstMetric(d, prometheus.GaugeValue, v)
	}
	for _, sc := range s.Timing {
		for _, cb := range sc.Callbacks {
			counter(c.calls, float64(cb.Calls), sc.Script, cb.Callback)
			counter(c.errors, float64(cb.Errors), sc.Script, cb.Callback)
			counter(c.seconds, cb.Total.Seconds(), sc.Script, cb.Callback)
		}
		counter(c.faults, float64(sc.Faults), sc.Script)
		counter(c.scriptReloads, float64(sc.Reloads), sc.Script)
	}
	gauge(c.scripts, float64(s.Scripts))
	counter(c.reloads, float64(s.Reloads))
	gauge(c.entities, float64(s.Runtime.Entities))
	gauge(c.instances, float64(s.Runtime.Instances))
	counter(c.frames, float64(s.Runtime.Frames))
	counter(c.runtimeErrors, float64(s.Runtime.Errors))
	counter(c.spawns, float64(s.Runtime.Spawns))
	counter(c.kills, float64(s.Runtime.Kills))
	gauge(c.memory, float64(s.Memory))
	buckets := make(map[float64]uint64, len(c.bounds))
	var cum uint64
	for i, b := range c.bounds {
		cum += s.FrameTimes.Buckets[i]
		buckets[b] = cum
	}
	ch <- prometheus.MustNewConstHistogram(c.frameSeconds, s.FrameTimes.Count, s.FrameTimes.Sum.Seconds(), buckets)
}
