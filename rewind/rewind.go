// Package rewind keeps a world's recent past so that it can be moved back
// to an earlier frame and run forward again. A luahost world is
// deterministic and saves and continues byte for byte, so the past is
// kept as keyframes — a snapshot every few frames — and the dt of every
// frame since: the world at any frame still held is its keyframe,
// restored, and stepped forward with the recorded dts. The replayed
// frames are the original ones, byte for byte.
//
// A hot reload changes the code the past ran: a History refuses to move
// back to before the last reload (Rewind's error says so) rather than
// replay old frames with new code, and its keyframes start again at the
// first frame after the reload.
package rewind

import (
	"errors"
	"fmt"

	"github.com/luahost/luahost/luabind"
	"github.com/luahost/luahost/runtime"
	"github.com/luahost/luahost/snapshot"
)

// Options say how much of the past a History keeps.
type Options struct {
	// Frames is how many frames back a rewind may go. The default (zero)
	// value means 600.
	Frames int
	// Every is the distance in frames between keyframes: a rewind
	// replays at most Every-1 frames. The default (zero) value means 30.
	Every int
	// MaxBytes bounds the keyframes' size; past it the oldest go first,
	// and the history reaches less far back than Frames. The default
	// (zero) value means 256 MiB.
	MaxBytes int64
}

// A History is the recent past of one world. It is driven by the
// goroutine that drives the world.
type History struct {
	opts  Options
	keys  []keyframe
	bytes int64
	// last is the last frame recorded.
	last uint64
	// reload is the frame of the last hot reload, 0 for none.
	reload    uint64
	hasReload bool
	// rekey makes the next Record take a keyframe.
	rekey bool
}

type keyframe struct {
	frame uint64
	doc   []byte
	// dts are the dt of each frame after the keyframe, as recorded.
	dts []float64
}

// New returns an empty history.
func New(opts Options) *History {
	if opts.Frames <= 0 {
		opts.Frames = 600
	}
	if opts.Every <= 0 {
		opts.Every = 30
	}
	if opts.MaxBytes <= 0 {
		opts.MaxBytes = 256 << 20
	}
	return &History{opts: opts}
}

// ErrNotHeld is what Rewind returns for a frame the history does not
// reach (too far back, after a reload, or not yet run).
var ErrNotHeld = errors.New("frame not held")

// Record adds the frame h's runtime just ran (or frame 0, before the
// first, to start the history), with the dt it ran with. It takes a
// keyframe every Every frames, and the first time it is called. O(the
// world's state) at a keyframe, O(1) otherwise.
func (hi *History) Record(h *luabind.Host, frame uint64, dt float64) error {
	if len(hi.keys) > 0 && frame != hi.last+1 {
		return fmt.Errorf("rewind: frame %d recorded after %d", frame, hi.last)
	}
	hi.last = frame
	if len(hi.keys) == 0 || hi.rekey || frame%uint64(hi.opts.Every) == 0 {
		hi.rekey = false
		snap, err := h.Snapshot()
		if err != nil {
			return fmt.Errorf("rewind: keyframe %d: %w", frame, err)
		}
		doc, err := snap.Marshal()
		if err != nil {
			return fmt.Errorf("rewind: keyframe %d: %w", frame, err)
		}
		hi.keys = append(hi.keys, keyframe{frame: frame, doc: doc})
		hi.bytes += int64(len(doc))
		hi.trim()
		return nil
	}
	k := &hi.keys[len(hi.keys)-1]
	k.dts = append(k.dts, dt)
	return nil
}

// trim drops the keyframes no rewind needs any more: those the bytes
// bound pushes out, and those older than the key that already reaches
// Frames back.
func (hi *History) trim() {
	for len(hi.keys) > 1 && hi.bytes > hi.opts.MaxBytes {
		hi.drop()
	}
	for len(hi.keys) > 1 && hi.keys[1].frame+uint64(hi.opts.Frames) <= hi.last {
		hi.drop()
	}
}

func (hi *History) drop() {
	hi.bytes -= int64(len(hi.keys[0].doc))
	hi.keys = hi.keys[1:]
}

// Reloaded tells the history that a script was reloaded before frame
// frame ran: no rewind goes to a frame before it. The keyframes held ran
// the old code, so they go; the next Record (of frame) takes one.
func (hi *History) Reloaded(frame uint64) {
	hi.reload, hi.hasReload, hi.rekey = frame, true, true
	hi.keys, hi.bytes = hi.keys[:0], 0
}

// Range returns the earliest and the latest frame a rewind reaches.
func (hi *History) Range() (first, last uint64) {
	if len(hi.keys) == 0 {
		return 0, 0
	}
	first = hi.keys[0].frame
	if hi.last > uint64(hi.opts.Frames) && hi.last-uint64(hi.opts.Frames) > first {
		first = hi.last - uint64(hi.opts.Frames)
	}
	if hi.hasReload && hi.reload > first {
		first = hi.reload
	}
	return first, hi.last
}

// Bytes returns the size of the keyframes held.
func (hi *History) Bytes() int64 { return hi.bytes }

// Rewind builds the world as it was after frame: the latest keyframe at
// or before it, given to build (which makes a fresh runtime and host with
// the same scripts and restores the snapshot into them), then stepped
// forward with the recorded dts. The history is left as it is: the
// caller that goes on with the rewound world calls Truncate.
func (hi *History) Rewind(frame uint64, build func(*snapshot.World) (*runtime.Runtime, *luabind.Host, error)) (*runtime.Runtime, *luabind.Host, error) {
	first, last := hi.Range()
	if len(hi.keys) == 0 || frame < first || frame > last {
		if hi.hasReload && frame < hi.reload && frame <= last {
			return nil, nil, fmt.Errorf("rewind to frame %d: %w: a script was reloaded before frame %d, and the frames before ran other code", frame, ErrNotHeld, hi.reload)
		}
		return nil, nil, fmt.Errorf("rewind to frame %d: %w (frames %d to %d are)", frame, ErrNotHeld, first, last)
	}
	i := len(hi.keys) - 1
	for hi.keys[i].frame > frame {
		i--
	}
	k := hi.keys[i]
	snap, err := snapshot.Parse(k.doc)
	if err != nil {
		return nil, nil, fmt.Errorf("rewind: keyframe %d: %w", k.frame, err)
	}
	rt, h, err := build(snap)
	if err != nil {
		return nil, nil, fmt.Errorf("rewind: keyframe %d: %w", k.frame, err)
	}
	for _, dt := range k.dts[:frame-k.frame] {
		if err := rt.Step(dt); err != nil {
			_ = h.Close()
			return nil, nil, fmt.Errorf("rewind: replaying frame %d: %w", rt.Frame(), err)
		}
	}
	return rt, h, nil
}

// Truncate forgets the frames after frame, for a world rewound to it
// that runs on from there.
func (hi *History) Truncate(frame uint64) {
	for len(hi.keys) > 1 && hi.keys[len(hi.keys)-1].frame > frame {
		hi.bytes -= int64(len(hi.keys[len(hi.keys)-1].doc))
		hi.keys = hi.keys[:len(hi.keys)-1]
	}
	k := &hi.keys[len(hi.keys)-1]
	if n := frame - k.frame; n < uint64(len(k.dts)) {
		k.dts = k.dts[:n]
	}
	hi.last = frame
}
