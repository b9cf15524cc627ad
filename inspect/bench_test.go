package inspect

import (
	"bufio"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"testing"
	"time"

	"github.com/stretchr/testify/require"

	"github.com/luahost/luahost/luabind"
	"github.com/luahost/luahost/runtime"
)

// BenchmarkPage10000 measures what an open inspector page costs the world
// of 10,000 spinners (testdata/bench/scripts/spinner.lua, the benchmark
// frame of docs/performance.md) running in real time at 60 frames a second. Each op is a frame
// paced at 1/60 s; every second the page opens or closes (a client doing
// what the page does: the event stream; the entity list every 1.25 s
// (250 ms per 2,000 entities); the selected entity every 250 ms; the
// blackboard every second), so that both run in
// the same conditions on a shared machine. Metrics: closed-ms and open-ms
// are the driving goroutine's time per frame (the Step with the requests
// served at its end) without and with the page, x-closed their ratio. Run
// it with -benchtime 1200x (20 seconds).
func BenchmarkPage10000(b *testing.B) {
	rt := runtime.New(runtime.Options{Seed: 1, OnError: runtime.Discard})
	host, err := luabind.New(rt, luabind.Options{Dir: "../testdata/bench/scripts", Stdout: io.Discard, Log: io.Discard})
	require.NoError(b, err)
	defer host.Close()
	var first runtime.Handle
	for i := range 10000 {
		e := rt.SpawnAt(runtime.Transform{Position: runtime.Vec3{X: float64(i % 100), Z: float64(i / 100)}, Scale: runtime.Vec3{X: 1, Y: 1, Z: 1}})
		require.NoError(b, rt.SetName(e, fmt.Sprintf("s%05d", i)))
		_, err := host.Attach(e, "spinner", nil)
		require.NoError(b, err)
		require.NoError(b, rt.Activate(e))
		if i == 0 {
			first = e
		}
	}
	in, err := New(host, Options{})
	require.NoError(b, err)
	srv := httptest.NewServer(in)
	defer srv.Close()
	defer in.Close()

	const frame = time.Second / 60
	var busy [2]time.Duration
	var frames [2]int
	var stop chan struct{}
	next := time.Now()
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; b.Loop(); i++ {
		open := i/60%2 == 1
		switch {
		case open && stop == nil:
			stop = make(chan struct{})
			go page(srv.URL, first, stop)
		case !open && stop != nil:
			close(stop)
			stop = nil
		}
		start := time.Now()
		_ = rt.Step(1.0 / 60)
		mode := 0
		if open {
			mode = 1
		}
		busy[mode] += time.Since(start)
		frames[mode]++
		next = next.Add(frame)
		if wait := time.Until(next); wait > 0 {
			time.Sleep(wait)
		}
	}
	if stop != nil {
		close(stop)
	}
	if frames[0] > 0 && frames[1] > 0 {
		closed := float64(busy[0]) / float64(frames[0]) / 1e6
		opened := float64(busy[1]) / float64(frames[1]) / 1e6
		b.ReportMetric(closed, "closed-ms")
		b.ReportMetric(opened, "open-ms")
		b.ReportMetric(opened/closed, "x-closed")
	}
}

// page does what an open inspector page of a world of 10,000 entities
// does until stop (inspect.js): it reads the event stream, fetches the
// entity list every 1.25 s, the selected entity every 250 ms and the
// blackboard every second.
func page(base string, selected runtime.Handle, stop chan struct{}) {
	get := func(path string) {
		resp, err := http.Get(base + path)
		if err == nil {
			_, _ = io.Copy(io.Discard, resp.Body)
			resp.Body.Close()
		}
	}
	go func() {
		resp, err := http.Get(base + "/api/stream")
		if err != nil {
			return
		}
		defer resp.Body.Close()
		go func() { <-stop; resp.Body.Close() }()
		sc := bufio.NewScanner(resp.Body)
		for sc.Scan() {
		}
	}()
	tick := time.NewTicker(250 * time.Millisecond)
	defer tick.Stop()
	for n := 0; ; n++ {
		select {
		case <-stop:
			return
		case <-tick.C:
		}
		if n%5 == 0 {
			get("/api/entities")
		}
		get("/api/entities/" + url.PathEscape(selected.String()))
		if n%4 == 0 {
			get("/api/blackboard")
		}
	}
}
