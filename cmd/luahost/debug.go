package main

import (
	"context"
	"flag"
	"fmt"
	"io"

	"github.com/luahost/luahost/dap"
	"github.com/luahost/luahost/luabind"
)

// debugFlags are run's debugger flags: --debug ADDR serves the Debug
// Adapter Protocol there; the world waits for the client's
// configurationDone before its first frame unless --debug-nowait.
type debugFlags struct {
	addr   string
	nowait bool
	srv    *dap.Server
	dbg    *luabind.Debugger
}

func (df *debugFlags) register(fs *flag.FlagSet) {
	fs.StringVar(&df.addr, "debug", "", "serve the Debug Adapter Protocol on `ADDR` (host:port; port 0 picks one) for an editor's debugger")
	fs.BoolVar(&df.nowait, "debug-nowait", false, "with --debug, start at once instead of waiting for the editor's breakpoints")
}

// attach serves host's debugger, before the scene's scripts load, and
// says where on stderr.
func (df *debugFlags) attach(host *luabind.Host, stderr io.Writer) error {
	srv, err := dap.Listen(df.addr, host.Debugger())
	if err != nil {
		return fmt.Errorf("--debug: %v", err)
	}
	df.srv, df.dbg = srv, host.Debugger()
	fmt.Fprintf(stderr, "luahost: debugger on %s\n", srv.Addr())
	return nil
}

// wait holds the world before its first frame until the client has set
// its breakpoints, or ctx is done (Ctrl-C). From then on, Ctrl-C also
// lets a paused world go, so that it can shut down.
func (df *debugFlags) wait(ctx context.Context) {
	if df.srv == nil {
		return
	}
	d := df.dbg
	go func() {
		<-ctx.Done()
		d.Detach()
	}()
	if df.nowait {
		return
	}
	select {
	case <-df.srv.Ready():
	case <-ctx.Done():
	}
}

// close tells the client that the world ended, with the exit status.
func (df *debugFlags) close(status int) {
	if df.srv != nil {
		_ = df.srv.Close(status)
		df.srv = nil
	}
}
