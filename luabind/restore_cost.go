package luabind

import (
	"errors"
	"fmt"
	goruntime "runtime"
	"runtime/metrics"

	"github.com/luahost/luahost/luabind/internal/gopherx"
	"github.com/luahost/luahost/runtime"
	"github.com/luahost/luahost/snapshot"
)

// ErrSnapshotTooLarge marks a restore refused before it built anything
// because the snapshot's data, once Lua tables, would pass the host's
// memory ceiling.
var ErrSnapshotTooLarge = errors.New("the snapshot's data would pass the memory ceiling")

// restoreBytes estimates what the Lua data of snap holds once restored,
// as the memory ceiling measures it: each table and each of its entries,
// and the bytes of strings. O(snap's data).
func restoreBytes(snap *snapshot.World) int64 {
	var n int64
	var walk func(v any)
	walk = func(v any) {
		switch x := v.(type) {
		case *runtime.Table:
			n += gopherx.TableBytes
			for _, f := range x.Fields {
				n += gopherx.EntryBytes
				walk(f.Key)
				walk(f.Value)
			}
		case string:
			n += int64(len(x))
		}
	}
	for i := range snap.Entities {
		for _, is := range snap.Entities[i].Instances {
			walk(is.Self.Value)
			for _, ts := range is.Timers {
				if ts.Data != nil {
					walk(ts.Data.Value)
				}
			}
		}
	}
	walk(snap.Blackboard.Value)
	return n
}

// checkRestoreCeiling refuses, before anything is built, a snapshot whose
// data would bring the live heap near the memory ceiling: a restore needs
// the Lua data it builds besides the snapshot it reads, and a world the
// ceiling would stop growing must not be made whole in one call.
func (h *Host) checkRestoreCeiling(snap *snapshot.World) error {
	c := h.opts.MemoryCeiling
	if c <= 0 {
		return nil
	}
	need := restoreBytes(snap)
	near := c / 8 * 7
	if need < near/2 {
		return nil
	}
	goruntime.GC()
	metrics.Read(heapSamples)
	if live := int64(heapSamples[1].Value.Uint64()); live+need >= near {
		return fmt.Errorf("%w: it would hold about %d MiB once restored, with a live heap of %d MiB, the ceiling %d MiB", ErrSnapshotTooLarge, need>>20, live>>20, c>>20)
	}
	return nil
}
