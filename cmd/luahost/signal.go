package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"syscall"
)

// exitInterrupted is the exit status after a second Ctrl-C or SIGTERM:
// 128 + SIGINT, as a shell reports a process killed by Ctrl-C.
const exitInterrupted = 130

// notifyStop returns a context cancelled by the first Ctrl-C or SIGTERM,
// so that the run finishes its frame and shuts down cleanly. A
// second one, while that shutdown is still under way (a callback running
// away with budgets off), exits the process at once with status 130
// without waiting for anything, since the goroutine driving the runtime may
// never come back. stop releases the signals.
func notifyStop(stderr io.Writer) (ctx context.Context, stop func()) {
	ctx, cancel := context.WithCancel(context.Background())
	sigs := make(chan os.Signal, 2)
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM)
	done := make(chan struct{})
	go func() {
		select {
		case <-sigs:
			cancel()
		case <-done:
			return
		}
		select {
		case sig := <-sigs:
			fmt.Fprintf(stderr, "luahost: %v again while shutting down; exiting now\n", sig)
			os.Exit(exitInterrupted)
		case <-done:
		}
	}()
	return ctx, func() {
		signal.Stop(sigs)
		close(done)
		cancel()
	}
}
