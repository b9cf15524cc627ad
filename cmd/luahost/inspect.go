package main

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"flag"
	"fmt"
	"io"
	"net"
	"net/http"

	"github.com/luahost/luahost/inspect"
)

// inspectFlags are run's --inspect flags.
type inspectFlags struct {
	addr     string
	token    string
	readonly bool
}

func (f *inspectFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&f.addr, "inspect", "", "serve the live inspector on `ADDR` (such as 127.0.0.1:7070; port 0 picks one), running in real time at --fps")
	fs.StringVar(&f.token, "inspect-token", "", "token the inspector requires (default: on a non-loopback address, a random one printed on stderr)")
	fs.BoolVar(&f.readonly, "inspect-readonly", false, "serve the inspector without pause, step, edits and eval")
}

// inspector is a served inspector: stop ends it.
type inspector struct {
	in   *inspect.Inspector
	srv  *http.Server
	done chan struct{}
}

// serveInspector starts the inspector of w on f.addr and prints its
// address on stderr (with the token, when one is needed). On any address
// but loopback every request needs the token: --inspect-token, or a
// random one. ctx's end releases a paused world, in the debugger too.
func (w *world) serveInspector(ctx context.Context, f *inspectFlags, opts inspect.Options, stderr io.Writer) (*inspector, error) {
	f.secure(&opts)
	in, err := inspect.New(w.host, opts)
	if err != nil {
		return nil, err
	}
	ln, err := f.listen(opts, "", stderr)
	if err != nil {
		in.Close()
		return nil, err
	}
	s := &inspector{in: in, srv: inspect.NewServer(in), done: make(chan struct{})}
	go func() {
		if err := s.srv.Serve(ln); err != nil && !errors.Is(err, http.ErrServerClosed) {
			fmt.Fprintf(stderr, "luahost run: inspector: %v\n", err)
		}
	}()
	go func() {
		select {
		case <-ctx.Done():
			in.Close()
			if opts.Debugger != nil {
				opts.Debugger.Detach()
			}
		case <-s.done:
		}
	}()
	return s, nil
}

// stop closes the server and the inspector; a paused world runs on.
func (s *inspector) stop() {
	close(s.done)
	s.in.Close()
	_ = s.srv.Close()
}

// secure sets opts' token and read-only mode from the flags: on any
// address but loopback every request needs the token, --inspect-token or
// a random one.
func (f *inspectFlags) secure(opts *inspect.Options) {
	opts.Token, opts.ReadOnly = f.token, f.readonly
	if !inspect.IsLoopback(f.addr) {
		if opts.Token == "" {
			b := make([]byte, 16)
			_, _ = rand.Read(b)
			opts.Token = hex.EncodeToString(b)
		}
		opts.TokenForReads = true
	}
}

// listen listens on f.addr and prints the inspector's address on stderr,
// with the token when one is needed, and what follows it.
func (f *inspectFlags) listen(opts inspect.Options, more string, stderr io.Writer) (net.Listener, error) {
	ln, err := net.Listen("tcp", f.addr)
	if err != nil {
		return nil, fmt.Errorf("--inspect: %w", err)
	}
	url := "http://" + ln.Addr().String() + "/"
	if opts.Token != "" {
		url += "?token=" + opts.Token
	}
	fmt.Fprintf(stderr, "inspector listening on %s%s\n", url, more)
	return ln, nil
}
