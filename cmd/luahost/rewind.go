package main

import (
	"context"
	"flag"
	"fmt"
	"io"
	"sync/atomic"

	"github.com/luahost/luahost/luabind"
	"github.com/luahost/luahost/rewind"
	"github.com/luahost/luahost/runtime"
	"github.com/luahost/luahost/snapshot"
)

// rewindFlags are run's --rewind flags: the world keeps its last frames
// FRAMES, with a keyframe every --rewind-every frames and the keyframes
// within --rewind-memory MiB, and the inspector moves it back.
type rewindFlags struct {
	frames int
	every  int
	memory int64
}

func (rf *rewindFlags) register(fs *flag.FlagSet) {
	fs.IntVar(&rf.frames, "rewind", 0, "keep the last `FRAMES` frames, so that the inspector (--inspect) or an editor (--debug) can move the world back to any of them")
	fs.IntVar(&rf.every, "rewind-every", 30, "with --rewind, a keyframe snapshot every `FRAMES` frames: a rewind replays at most that many")
	fs.Int64Var(&rf.memory, "rewind-memory", 256, "with --rewind, keep the keyframes within `MIB` MiB, dropping the oldest")
}

// usageError returns what is wrong with the --rewind flags, or "".
func (rf *rewindFlags) usageError(f *runFlags) string {
	switch {
	case rf.frames < 0:
		return "--rewind must not be negative"
	case rf.frames == 0 && (f.set["rewind-every"] || f.set["rewind-memory"]):
		return "--rewind-every and --rewind-memory go with --rewind"
	case rf.frames == 0:
		return ""
	case rf.every < 1:
		return "--rewind-every must be 1 or more"
	case rf.memory < 1 || rf.memory > maxCeiling:
		return fmt.Sprintf("--rewind-memory must be from 1 to %d MiB", int64(maxCeiling))
	case f.inspect.addr == "" && f.debug.addr == "":
		return "--rewind needs --inspect or --debug: the inspector's page or an editor moves the world back"
	case f.zones > 0:
		return "--zones cannot be combined with --rewind"
	case f.profile != "":
		return "--profile cannot be combined with --rewind"
	}
	return ""
}

// gate is a writer that can be shut, for the output of frames that are
// replayed: they ran, and printed, once already.
type gate struct {
	w   io.Writer
	off atomic.Bool
}

func (g *gate) Write(p []byte) (int, error) {
	if g.off.Load() {
		return len(p), nil
	}
	return g.w.Write(p)
}

// timeline is the history of a world run with --rewind, and what moving
// it back takes: the world goes on in a new runtime and host, restored
// from a keyframe and replayed to the frame asked for, with the
// debugger, the file watcher and the error log moved over. Its methods
// run on the goroutine that drives the world.
type timeline struct {
	w    *world
	hi   *rewind.History
	opts luabind.Options
	// out shuts the world's output while frames are replayed.
	out    []*gate
	stderr io.Writer
	dbg    *luabind.Debugger
	// watch, when set, makes each new host watch its scripts (--watch).
	watch     context.Context
	stopWatch func() error
}

// newTimeline starts the history of w, whose host was made with opts.
func newTimeline(w *world, rf *rewindFlags, opts luabind.Options, out []*gate, stderr io.Writer, dbg *luabind.Debugger) (*timeline, error) {
	tl := &timeline{w: w, opts: opts, out: out, stderr: stderr, dbg: dbg,
		hi: rewind.New(rewind.Options{Frames: rf.frames, Every: rf.every, MaxBytes: rf.memory << 20})}
	if err := tl.hi.Record(w.host, w.rt.Frame(), 0); err != nil {
		return nil, fmt.Errorf("--rewind: %v", err)
	}
	tl.follow(w.rt, w.host)
	return tl, nil
}

// follow records every frame of rt and every reload of host.
func (tl *timeline) follow(rt *runtime.Runtime, host *luabind.Host) {
	rt.AfterStep(func() {
		if tl.w.rt != rt {
			return
		}
		if err := tl.hi.Record(host, rt.Frame(), rt.DT()); err != nil {
			fmt.Fprintf(tl.stderr, "luahost run: %v\n", err)
		}
	})
	host.ObserveReloads(func(ri luabind.ReloadInfo) {
		if ri.Err == nil {
			tl.hi.Reloaded(rt.Frame() + 1)
		}
	})
}

// Range returns the frames a rewind reaches.
func (tl *timeline) Range() (first, last uint64) { return tl.hi.Range() }

// Rewind moves the world back to frame: the replayed frames print
// nothing, the old world is closed without a word (its onDestroy
// callbacks run, silenced), and the world goes on from frame.
func (tl *timeline) Rewind(frame uint64) (*luabind.Host, error) {
	for _, g := range tl.out {
		g.off.Store(true)
	}
	defer func() {
		for _, g := range tl.out {
			g.off.Store(false)
		}
	}()
	rt, host, err := tl.hi.Rewind(frame, tl.build)
	if err != nil {
		return nil, err
	}
	if tl.dbg != nil {
		host.UseDebugger(tl.dbg)
	}
	old := tl.w.host
	if tl.stopWatch != nil {
		_ = tl.stopWatch()
		tl.stopWatch = nil
	}
	tl.w.rt, tl.w.host = rt, host
	_ = old.Close()
	tl.w.errs = luabind.NewErrorLog(rt, tl.out[len(tl.out)-1])
	tl.hi.Truncate(frame)
	tl.follow(rt, host)
	if tl.watch != nil {
		if tl.stopWatch, err = host.Watch(tl.watch); err != nil {
			fmt.Fprintf(tl.stderr, "luahost run: %v\n", err)
		}
	}
	return host, nil
}

// build makes a fresh runtime and host of the world's scripts and
// restores a keyframe into them. Its scripts must all load.
func (tl *timeline) build(snap *snapshot.World) (*runtime.Runtime, *luabind.Host, error) {
	rt := runtime.New(runtime.Options{OnError: runtime.Discard})
	opts := tl.opts
	opts.Lenient = false
	host, err := luabind.New(rt, opts)
	if err != nil {
		return nil, nil, err
	}
	if err := host.Restore(snap); err != nil {
		_ = host.Close()
		return nil, nil, err
	}
	return rt, host, nil
}
