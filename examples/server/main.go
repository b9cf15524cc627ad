// Command server is an embedder's game server: a 30 Hz loop over two
// zones of one road, each a luahost world on its own goroutine, with Lua
// behaviours (scripts/walker.lua) and a Go-native one (stamina) in one
// schedule. Walkers cross from one zone to the other through handoff;
// both worlds export their counters to Prometheus (/metrics) and expvar
// (/debug/vars), save a snapshot every few seconds without stopping the
// loop, and shut down cleanly on SIGINT or SIGTERM: every walker in
// transit arrives, each zone saves a last snapshot, and every onDestroy
// runs.
//
//	go run ./examples/server -addr localhost:9090 -save /tmp/road
//	curl localhost:9090/metrics
//
// With -scripts DIR it reads its scripts from DIR and reloads them when
// they change; otherwise it runs the copies embedded in the binary.
package main

import (
	"context"
	"embed"
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"log/slog"
	"net"
	"net/http"
	"os"
	"os/signal"
	"path/filepath"
	"sync"
	"syscall"
	"time"

	"github.com/prometheus/client_golang/prometheus"
	"github.com/prometheus/client_golang/prometheus/promhttp"

	"github.com/luahost/luahost/luabind"
	"github.com/luahost/luahost/metrics/expvarstats"
	"github.com/luahost/luahost/metrics/promstats"
	"github.com/luahost/luahost/runtime"
	"github.com/luahost/luahost/snapshot"
)

//go:embed scripts
var embedded embed.FS

func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	if err := run(ctx, os.Args[1:], os.Stdout, os.Stderr); err != nil {
		fmt.Fprintln(os.Stderr, "server:", err)
		os.Exit(1)
	}
}

// config is what the flags set.
type config struct {
	addr          string
	hz            float64
	frames        uint64
	walkers       int
	scripts       string
	save          string
	snapshotEvery uint64
}

func parseFlags(args []string, stderr io.Writer) (config, error) {
	var c config
	fl := flag.NewFlagSet("server", flag.ContinueOnError)
	fl.SetOutput(stderr)
	fl.StringVar(&c.addr, "addr", "localhost:9090", "address of the /metrics and /debug/vars endpoints (empty: none)")
	fl.Float64Var(&c.hz, "hz", 30, "frames a second")
	fl.Uint64Var(&c.frames, "frames", 0, "stop after this many frames of each zone (0: run until interrupted)")
	fl.IntVar(&c.walkers, "walkers", 1000, "walkers spawned in each zone")
	fl.StringVar(&c.scripts, "scripts", "", "script folder to read and watch (empty: the embedded scripts)")
	fl.StringVar(&c.save, "save", "", "folder to save each zone's snapshots in (empty: no snapshots)")
	fl.Uint64Var(&c.snapshotEvery, "snapshot-every", 150, "frames between two snapshots")
	if err := fl.Parse(args); err != nil {
		return c, err
	}
	if c.hz <= 0 || c.walkers < 0 || c.snapshotEvery == 0 {
		return c, errors.New("-hz and -snapshot-every must be positive, -walkers not negative")
	}
	return c, nil
}

// run serves until ctx is done or every zone ran -frames frames.
func run(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	cfg, err := parseFlags(args, stderr)
	if err != nil {
		return err
	}
	logger := slog.New(slog.NewTextHandler(stderr, nil))
	west, err := newZone("west", 0, 10, cfg, logger)
	if err != nil {
		return err
	}
	east, err := newZone("east", 10, 20, cfg, logger)
	if err != nil {
		west.close()
		return err
	}
	west.next, east.next = east, west
	for i := range cfg.walkers {
		west.spawnWalker(float64(i%10) + 0.5)
		east.spawnWalker(float64(i%10) + 10.5)
	}

	if cfg.addr != "" {
		srv, addr, err := serve(cfg.addr, west, east)
		if err != nil {
			west.close()
			east.close()
			return err
		}
		defer srv.Close()
		fmt.Fprintf(stdout, "serving http://%s (/metrics, /debug/vars)\n", addr)
	}

	loopCtx, cancel := context.WithCancel(ctx)
	defer cancel()
	var wg sync.WaitGroup
	errs := make([]error, 2)
	for i, z := range []*zone{west, east} {
		wg.Go(func() { errs[i] = z.loop(loopCtx, cfg) })
	}
	wg.Wait()
	if err := errors.Join(errs...); err != nil {
		west.close()
		east.close()
		return err
	}

	// Both loops stopped: the walkers still in transit arrive, then
	// each zone saves its last snapshot and closes.
	for _, z := range []*zone{west, east} {
		if err := z.receive(); err != nil {
			return err
		}
	}
	total := 0
	for _, z := range []*zone{west, east} {
		if cfg.save != "" {
			if err := z.save(cfg.save); err != nil {
				return err
			}
		}
		s := z.rt.Stats()
		total += s.Entities
		fmt.Fprintf(stdout, "%s: %d frames, %d walkers, %d handed over, %d snapshots\n",
			z.name, s.Frames, s.Entities, z.handedOver, z.snapshots)
		if err := z.close(); err != nil {
			return err
		}
	}
	fmt.Fprintf(stdout, "shut down with %d walkers\n", total)
	return nil
}

// serve starts the metrics endpoints of both zones.
func serve(addr string, zones ...*zone) (*http.Server, string, error) {
	reg := prometheus.NewRegistry()
	mux := http.NewServeMux()
	vars := make(map[string]any)
	for _, z := range zones {
		reg.MustRegister(promstats.New(z.host, promstats.Options{Labels: prometheus.Labels{"zone": z.name}}))
		vars[z.name] = expvarstats.Var(z.host)
	}
	mux.Handle("/metrics", promhttp.HandlerFor(reg, promhttp.HandlerOpts{}))
	mux.HandleFunc("/debug/vars", func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprint(w, "{")
		first := true
		for _, z := range zones {
			if !first {
				fmt.Fprint(w, ",")
			}
			first = false
			fmt.Fprintf(w, "%q: %s", z.name, vars[z.name])
		}
		fmt.Fprint(w, "}")
	})
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return nil, "", err
	}
	srv := &http.Server{Handler: mux, ReadHeaderTimeout: 5 * time.Second}
	go func() { _ = srv.Serve(ln) }()
	return srv, ln.Addr().String(), nil
}

// scriptsFS returns the embedded scripts.
func scriptsFS() fs.FS {
	sub, err := fs.Sub(embedded, "scripts")
	if err != nil {
		panic(err)
	}
	return sub
}

// snapshotPath is where a zone's snapshots go.
func snapshotPath(dir, zone string) string { return filepath.Join(dir, zone+".json") }

// readSnapshot reads a zone's last snapshot.
func readSnapshot(dir, zone string) (*snapshot.World, error) {
	f, err := os.Open(snapshotPath(dir, zone))
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return snapshot.Read(f, luabind.DefaultCeiling())
}

// newWorld returns a fresh runtime and host for a zone.
func newWorld(cfg config, logger *slog.Logger) (*runtime.Runtime, *luabind.Host, error) {
	rt := runtime.New(runtime.Options{Seed: 1, Logger: logger})
	opts := luabind.Options{Logger: logger, Stdout: io.Discard}
	if cfg.scripts != "" {
		opts.Dir = cfg.scripts
	} else {
		opts.FS = scriptsFS()
	}
	host, err := luabind.New(rt, opts)
	if err != nil {
		return nil, nil, err
	}
	if err := host.RegisterScript(stamina{}); err != nil {
		_ = host.Close()
		return nil, nil, err
	}
	return rt, host, nil
}
