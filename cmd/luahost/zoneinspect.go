package main

import (
	"context"
	"crypto/subtle"
	"errors"
	"fmt"
	"html"
	"io"
	"net/http"
	"reflect"
	"strings"
	"sync"
	"time"

	"github.com/luahost/luahost/inspect"
)

// The inspector of a zoned world is one inspector a zone, all served on
// --inspect's address: zone N's page at /zone/N/, showing the entities
// its zone holds and evaluating its console in that zone, and at / a
// page linking to them. A zone's requests are served between frames,
// at the end of its own frame or by the goroutine driving the world, so
// pausing or stepping on any zone's page pauses or steps the whole world
// (every zone waits for the paused one at the end of the frame); the
// other zones' pages answer once it runs on.

// zoneInspectors are the served inspectors of a zoned world.
type zoneInspectors struct {
	ins []*inspect.Inspector
	// pending are the inspectors' Pending channels, which only the
	// goroutine driving the world reads (wait): Drain waits on them too.
	pending []reflect.SelectCase
	srv     *http.Server
	done    chan struct{}
	wg      sync.WaitGroup
}

// serveInspectors starts an inspector for every zone of z on f.addr
// and prints the address on stderr, as one world's inspector does (with
// the token, when one is needed: the same for every zone).
func (z *zoned) serveInspectors(ctx context.Context, f *inspectFlags, stderr io.Writer) (*zoneInspectors, error) {
	var opts inspect.Options
	f.secure(&opts)
	s := &zoneInspectors{done: make(chan struct{})}
	mux := http.NewServeMux()
	for i := range z.w.Zones() {
		in, err := inspect.New(z.w.Host(i), opts)
		if err != nil {
			s.stop()
			return nil, err
		}
		s.ins = append(s.ins, in)
		s.pending = append(s.pending, reflect.SelectCase{Dir: reflect.SelectRecv, Chan: reflect.ValueOf(in.Pending())})
		prefix := fmt.Sprintf("/zone/%d", i)
		mux.Handle(prefix+"/", http.StripPrefix(prefix, in))
	}
	mux.HandleFunc("GET /{$}", func(w http.ResponseWriter, r *http.Request) { s.index(w, r, opts) })
	ln, err := f.listen(opts, " (zone N at /zone/N/)", stderr)
	if err != nil {
		s.stop()
		return nil, err
	}
	s.srv = &http.Server{Handler: mux, ReadHeaderTimeout: inspect.ReadHeaderTimeout, IdleTimeout: inspect.IdleTimeout}
	go func() {
		if err := s.srv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
			fmt.Fprintf(stderr, "luahost run: inspector: %v\n", err)
		}
	}()
	s.wg.Go(func() {
		select {
		case <-ctx.Done():
			for _, in := range s.ins {
				in.Close()
			}
		case <-s.done:
		}
	})
	return s, nil
}

// index answers / with links to the zones' pages, passing the token on.
// With TokenForReads it needs the token, as the zones' pages do.
func (s *zoneInspectors) index(w http.ResponseWriter, r *http.Request, opts inspect.Options) {
	token := r.URL.Query().Get("token")
	if opts.TokenForReads && subtle.ConstantTimeCompare([]byte(token), []byte(opts.Token)) != 1 {
		http.Error(w, "this inspector needs its token", http.StatusUnauthorized)
		return
	}
	query := ""
	if token != "" {
		query = "?token=" + html.EscapeString(token)
	}
	var b strings.Builder
	b.WriteString("<!doctype html><meta charset=\"utf-8\"><title>luahost zones</title><h1>Zones</h1><ul>\n")
	for i := range s.ins {
		fmt.Fprintf(&b, "<li><a href=\"zone/%d/%s\">zone %d</a></li>\n", i, query, i)
	}
	b.WriteString("</ul>\n")
	w.Header().Set("Content-Type", "text/html; charset=utf-8")
	_, _ = io.WriteString(w, b.String())
}

// wait returns once ctx is done (false), tick ticks or a zone's
// inspector has requests waiting (true for both); then the requests
// are served (drain) before it returns.
func (s *zoneInspectors) wait(ctx context.Context, tick <-chan time.Time) bool {
	cases := append([]reflect.SelectCase{
		{Dir: reflect.SelectRecv, Chan: reflect.ValueOf(ctx.Done())},
		{Dir: reflect.SelectRecv, Chan: reflect.ValueOf(tick)},
	}, s.pending...)
	for {
		switch chosen, _, _ := reflect.Select(cases); chosen {
		case 0:
			return false
		case 1:
			return true
		}
		s.drain()
	}
}

// drain serves every zone's waiting requests, on the goroutine driving
// the world, between frames.
func (s *zoneInspectors) drain() {
	for _, in := range s.ins {
		in.Drain()
	}
}

// frameTime returns the last frame's time without pauses: the longest
// of the zones'.
func (s *zoneInspectors) frameTime() time.Duration {
	var d time.Duration
	for _, in := range s.ins {
		d = max(d, in.FrameTime())
	}
	return d
}

// stop closes the server and the inspectors: a paused world runs on.
func (s *zoneInspectors) stop() {
	close(s.done)
	for _, in := range s.ins {
		in.Close()
	}
	if s.srv != nil {
		_ = s.srv.Close()
	}
	s.wg.Wait()
}
