package luabind

import (
	"bufio"
	"errors"
	"fmt"
	"math"
	"os"
	goruntime "runtime"
	"runtime/debug"
	"runtime/metrics"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/luahost/luahost/runtime"
)

// The memory ceiling stops growth across frames — a
// self or a module's table growing every frame — before the process dies
// of it. At the end of every frame the host reads the heap's size (one
// runtime/metrics read). When it nears the ceiling (seven eighths), the
// host collects garbage to learn the live heap and, if that is near too,
// measures its Lua data (a walk of every state, self and the blackboard,
// on the driving goroutine); if it holds the most of the process's hosts,
// it faults its instance whose data is largest: that growth stops (its
// memory is kept until the instance is destroyed). It acts again only
// once the heap grew by another sixteenth of the ceiling, so one growth
// faults one instance, not every instance in turn. When a script's state,
// which all its instances share, holds the most (a module-level table),
// every instance of the script is faulted. The entities a script's
// callbacks spawned and that live on count with its state, so a script
// spawning without end is the one faulted, and its spawning stops.

// ceilingShare is the fraction of the machine's memory that the default
// ceiling allows the live heap: a live heap of L needs up to 2L with Go's
// default GOGC, and the process needs room besides.
const ceilingShare = 4

// DefaultCeiling returns the ceiling used when Options.MemoryCeiling is
// zero: a quarter of the machine's memory (or of the cgroup's limit, when
// lower), and never above GOMEMLIMIT when that is set; 0 (no ceiling)
// when neither is known.
func DefaultCeiling() int64 {
	c := machineMemory() / ceilingShare
	return capCeiling(c)
}

// CeilingOf returns the ceiling, in bytes, that a Host given
// Options.MemoryCeiling c keeps to: DefaultCeiling() for 0, c lowered to
// GOMEMLIMIT when that is set and lower, and -1 (none) for a negative c.
func CeilingOf(c int64) int64 {
	switch {
	case c == 0:
		return DefaultCeiling()
	case c > 0:
		return capCeiling(c)
	}
	return -1
}

// capCeiling lowers c to GOMEMLIMIT when that is set and lower.
func capCeiling(c int64) int64 {
	if lim := debug.SetMemoryLimit(-1); lim != math.MaxInt64 && (c <= 0 || lim < c) {
		return lim
	}
	return c
}

// machineMemory returns the memory the process may use: the machine's
// (/proc/meminfo) or its cgroup's limit, whichever is lower; 0 when
// neither can be read.
func machineMemory() int64 {
	var total int64
	if f, err := os.Open("/proc/meminfo"); err == nil {
		sc := bufio.NewScanner(f)
		for sc.Scan() {
			if rest, ok := strings.CutPrefix(sc.Text(), "MemTotal:"); ok {
				kb, err := strconv.ParseInt(strings.TrimSpace(strings.TrimSuffix(strings.TrimSpace(rest), "kB")), 10, 64)
				if err == nil {
					total = kb << 10
				}
				break
			}
		}
		f.Close()
	}
	if b, err := os.ReadFile("/sys/fs/cgroup/memory.max"); err == nil {
		if n, err := strconv.ParseInt(strings.TrimSpace(string(b)), 10, 64); err == nil && n > 0 && (total == 0 || n < total) {
			total = n
		}
	}
	return total
}

// hostSizes is what the hosts of the process last measured of their Lua
// data, so that only the one holding the most acts.
var hostSizes = struct {
	sync.Mutex
	m map[*Host]measured
}{m: make(map[*Host]measured)}

type measured struct {
	bytes int64
	at    time.Time
}

// staleSize is how old a host's measure may be to count: a host that no
// longer steps does not grow.
const staleSize = time.Second

// largestHost publishes h's measure and reports whether no other host
// measured more within staleSize.
func largestHost(h *Host, bytes int64) bool {
	hostSizes.Lock()
	defer hostSizes.Unlock()
	now := time.Now()
	hostSizes.m[h] = measured{bytes, now}
	for o, m := range hostSizes.m {
		if o != h && m.bytes > bytes && now.Sub(m.at) < staleSize {
			return false
		}
	}
	return true
}

// forgetHost removes a closed host's measure.
func forgetHost(h *Host) {
	hostSizes.Lock()
	delete(hostSizes.m, h)
	hostSizes.Unlock()
}

var heapSamples = []metrics.Sample{{Name: "/memory/classes/heap/objects:bytes"}, {Name: "/gc/heap/live:bytes"}}

// checkCeiling runs at the end of every frame. It reads the heap's
// objects (live and not yet swept), which follow allocation at once; when
// they near the ceiling it collects garbage, once for every sixteenth of
// the ceiling they grew since it last did, so that the decision is taken
// on the live heap, not on garbage.
func (h *Host) checkCeiling() {
	c := h.opts.MemoryCeiling
	if c <= 0 {
		return
	}
	near := c / 8 * 7
	metrics.Read(heapSamples[:1])
	objects := int64(heapSamples[0].Value.Uint64())
	if objects < near {
		h.ceilingMark = 0
		return
	}
	if h.ceilingMark != 0 && objects < h.ceilingMark+c/16 {
		return
	}
	goruntime.GC()
	metrics.Read(heapSamples)
	live := int64(heapSamples[1].Value.Uint64())
	h.ceilingMark = int64(heapSamples[0].Value.Uint64())
	if live >= near {
		h.faultLargest(live)
	}
}

// ErrCopyCeiling marks a copy of a script's properties (an attach's new
// self, a reload's migrated one) refused because it would pass the
// memory ceiling.
var ErrCopyCeiling = errors.New("properties copy would pass the memory ceiling")

// chargeCopy counts a copy of n bytes of properties, about to be made,
// against the memory ceiling, and refuses it when it would pass: copies
// are made in setup, by attaches and by reloads, where no frame's end
// checks the ceiling, and four thousand copies of a large properties
// table exhausted the process before any did. It reads the heap once for
// every 64th of the ceiling copied (collecting garbage only when the
// heap is near), so a copy costs O(1) besides itself, and a refused one
// allocates nothing.
func (h *Host) chargeCopy(n int64) error {
	c := h.opts.MemoryCeiling
	if c <= 0 {
		return nil
	}
	if n <= c/64 {
		if h.copied += n; h.copied < c/64 {
			return nil
		}
	}
	h.copied = 0
	near := c / 8 * 7
	metrics.Read(heapSamples[:1])
	heap := int64(heapSamples[0].Value.Uint64())
	if heap+n < near {
		return nil
	}
	goruntime.GC()
	metrics.Read(heapSamples)
	if live := int64(heapSamples[1].Value.Uint64()); live+n >= near {
		return fmt.Errorf("%w: a copy of %d KiB with a live heap of %d MiB, the ceiling %d MiB", ErrCopyCeiling, n>>10, live>>20, c>>20)
	}
	return nil
}

// faultLargest measures the host's Lua data and, when the host holds the
// most of the process's hosts, faults its largest consumer.
func (h *Host) faultLargest(live int64) {
	z := newSizer(h.seen)
	var total int64
	var worst *runtime.Instance
	var worstState *Script
	var worstBytes, spawned int64
	for _, s := range h.order {
		before := z.bytes
		z.state(s.st)
		z.bytes += int64(s.spawned.Live()) * entityBytes
		if n := z.bytes - before; n > worstBytes {
			worstBytes, worstState, worst = n, s, nil
			spawned = int64(s.spawned.Live()) * entityBytes
		}
	}
	for _, inst := range h.rt.Schedule() {
		li, ok := inst.Data.(*instance)
		if !ok || inst.Faulted() {
			continue
		}
		before := z.bytes
		z.instance(li)
		if n := z.bytes - before; n > worstBytes {
			worstBytes, worst, worstState = n, inst, nil
		}
	}
	for _, k := range h.rt.Blackboard().Keys() {
		z.plain(h.rt.Blackboard().GetPlain(k))
	}
	total = z.bytes
	if !largestHost(h, total) || (worst == nil && worstState == nil) {
		return
	}
	ceiling := h.opts.MemoryCeiling
	if worstBytes < ceiling/16 {
		// No instance holds a real share: the growth is not Lua data
		// (entities, say), and faulting the largest holder would blame
		// a bystander.
		h.warn(nil, fmt.Sprintf("the host's %d MiB memory ceiling is near (live heap %d MiB), but its scripts' data holds only %d MiB: no instance is faulted", ceiling>>20, live>>20, total>>20))
		return
	}
	fault := func(inst *runtime.Instance, what string) {
		s := inst.Script().(*Script)
		msg := fmt.Sprintf("%s: the host's %d MiB memory ceiling is near (live heap %d MiB): %s %d MiB, the most of any", s.file, ceiling>>20, live>>20, what, worstBytes>>20)
		h.rt.Fault(inst, "ceiling", &runtime.ScriptError{Script: s.name, File: s.file, Message: msg, Err: ErrMemory})
	}
	if worst != nil {
		fault(worst, "its self and timers hold")
		return
	}
	what := "its script's state holds"
	if 2*spawned > worstBytes {
		what = fmt.Sprintf("its script's state and the %d entities it spawned (%d bytes each) hold", worstState.spawned.Live(), entityBytes)
	}
	for _, inst := range h.rt.Schedule() {
		if inst.Script() == worstState {
			fault(inst, what)
		}
	}
}

// entityBytes is what the ceiling counts for an entity a script spawned
// and that is not yet reaped: the runtime's part of it (slot, payload,
// spatial cell), beyond the selves of its instances, which are counted
// with their own scripts. A script spawning entities without end is then
// the largest holder, not a bystander.
const entityBytes = 256
