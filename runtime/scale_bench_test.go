package runtime

import (
	"fmt"
	"testing"
)

// The benchmarks of this file measure per-operation costs beside worlds
// of 200 and of 100,000 entities (the target: within 1.5x of each other;
// docs/performance.md gives the figures).
// Each world's entities carry one listening, named Go-native script.

var worldSizes = []int{200, 100_000}

// listener observes "hit" and does nothing else.
type listener struct{ name string }

func (s *listener) Name() string                               { return s.name }
func (s *listener) Priority() int                              { return 0 }
func (s *listener) EventNames() []string                       { return []string{"hit"} }
func (s *listener) HandleEvent(*Instance, *Event) (any, error) { return nil, nil }

// listeningWorld returns a runtime with n Active entities named "minion",
// each with one instance of a listener script, after one frame.
func listeningWorld(b *testing.B, n int) *Runtime {
	rt := New(Options{OnError: Discard})
	s := &listener{name: "crowd"}
	for range n {
		spawnListener(rt, s)
	}
	if err := rt.Step(1.0 / 60); err != nil {
		b.Fatal(err)
	}
	return rt
}

func spawnListener(rt *Runtime, s Script) (Handle, *Instance) {
	h := rt.Spawn()
	if err := rt.SetName(h, "minion"); err != nil {
		panic(err)
	}
	inst, err := rt.Attach(h, s, nil)
	if err != nil {
		panic(err)
	}
	if err := rt.Activate(h); err != nil {
		panic(err)
	}
	return h, inst
}

func forWorlds(b *testing.B, fn func(b *testing.B, n int)) {
	for _, n := range worldSizes {
		b.Run(fmt.Sprintf("world=%d", n), func(b *testing.B) { fn(b, n) })
	}
}

// BenchmarkListenerChurn: spawn a named entity with a listening script,
// then kill it (subscribe, unsubscribe, name, unname, schedule in and out).
func BenchmarkListenerChurn(b *testing.B) {
	forWorlds(b, func(b *testing.B, n int) {
		rt := listeningWorld(b, n)
		s := &listener{name: "churn"}
		b.ReportAllocs()
		for b.Loop() {
			h, _ := spawnListener(rt, s)
			if _, err := rt.Kill(h); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// BenchmarkChurnFrame: one frame in which an entity's Update spawns a
// listening entity and kills the one it spawned the frame before, in a
// world whose other instances have no Update. The frame still visits
// every instance; what grows with the world here beyond that visit is the
// runtime's bookkeeping.
func BenchmarkChurnFrame(b *testing.B) {
	forWorlds(b, func(b *testing.B, n int) {
		rt := listeningWorld(b, n)
		s := &listener{name: "churn"}
		var last Handle
		driver := &testScript{name: "driver", log: &recorder{}, update: func(*Instance, float64) error {
			if !last.IsZero() {
				if _, err := rt.Kill(last); err != nil {
					return err
				}
			}
			last, _ = spawnListener(rt, s)
			return nil
		}}
		h := rt.Spawn()
		if _, err := rt.Attach(h, driver, nil); err != nil {
			b.Fatal(err)
		}
		if err := rt.Activate(h); err != nil {
			b.Fatal(err)
		}
		b.ReportAllocs()
		for b.Loop() {
			driver.log.lines = driver.log.lines[:0]
			if err := rt.Step(1.0 / 60); err != nil {
				b.Fatal(err)
			}
		}
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(n), "ns/frame/entity")
	})
}

// BenchmarkSendToEntity: NotifyEntity to one entity while every entity of
// the world listens to the same event.
func BenchmarkSendToEntity(b *testing.B) {
	forWorlds(b, func(b *testing.B, n int) {
		rt := listeningWorld(b, n)
		target, _ := rt.Find("minion")
		b.ReportAllocs()
		for b.Loop() {
			if _, err := rt.Events().NotifyEntity(target, "hit", nil, -1); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// BenchmarkScriptChanged: the runtime's share of a hot reload of a script
// with 10 listening instances beside the world, with the priority kept
// (moved=false) and with it changed back and forth, for instances
// attached after the world (moved=true) and spread through it, one every
// tenth of the world (moved=spread).
func BenchmarkScriptChanged(b *testing.B) {
	for _, mode := range []string{"false", "true", "spread"} {
		b.Run("moved="+mode, func(b *testing.B) {
			forWorlds(b, func(b *testing.B, n int) {
				s := &testScript{name: "hot", log: &recorder{}, events: []string{"hit"}}
				rt := New(Options{OnError: Discard})
				crowd := &listener{name: "crowd"}
				for i := range n {
					spawnListener(rt, crowd)
					if mode == "spread" && i%(n/10) == 0 {
						attach(b, rt, spawnActive(b, rt, ""), s, nil)
					}
				}
				if mode != "spread" {
					for range 10 {
						attach(b, rt, spawnActive(b, rt, ""), s, nil)
					}
				}
				if err := rt.Step(1.0 / 60); err != nil {
					b.Fatal(err)
				}
				b.ReportAllocs()
				for b.Loop() {
					if mode != "false" {
						s.prio = 1 - s.prio
					}
					if err := rt.ScriptChanged(s); err != nil {
						b.Fatal(err)
					}
				}
			})
		})
	}
}

// BenchmarkShutdown: Close of a world whose entities all listen and share
// one name, per entity.
func BenchmarkShutdown(b *testing.B) {
	forWorlds(b, func(b *testing.B, n int) {
		b.ReportAllocs()
		for b.Loop() {
			b.StopTimer()
			rt := listeningWorld(b, n)
			b.StartTimer()
			if err := rt.Close(); err != nil {
				b.Fatal(err)
			}
		}
		b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N)/float64(n), "ns/entity")
	})
}
