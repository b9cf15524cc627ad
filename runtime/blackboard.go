package runtime

import (
	"fmt"
	"maps"
	"slices"
)

// Blackboard is the runtime's shared store of plain data: string
// keys, values copied in and copied out, so a reader that changes what it
// got changes only its copy. It is driven by the runtime's goroutine and is
// not safe for concurrent use.
type Blackboard struct {
	m     map[string]any
	onSet func(key string, v any)
}

// OnSet registers fn to be called after every Set and SetPlain with the
// key and the value stored (nil for a delete), which fn must not change.
// Zones publish a frame's writes through it. One function at a time: a
// second call replaces the first; nil removes it.
func (b *Blackboard) OnSet(fn func(key string, v any)) { b.onSet = fn }

func newBlackboard() *Blackboard { return &Blackboard{m: make(map[string]any)} }

// Get returns a copy of the value under key and whether it is set. Scalars
// cost nothing; a table is copied (O(size)).
func (b *Blackboard) Get(key string) (any, bool) {
	v, ok := b.m[key]
	if !ok {
		return nil, false
	}
	if t, isTable := v.(*Table); isTable {
		c, _ := Plain(t)
		return c, true
	}
	return v, true
}

// GetPlain returns the stored value under key without copying it, for a
// caller that only reads it (to build its own copy, as luabind does for
// Lua). It must not be changed.
func (b *Blackboard) GetPlain(key string) any { return b.m[key] }

// Set stores a copy of v under key; nil deletes the key. A value that is not
// plain data (Plain) is refused with an error naming the key, and the
// blackboard is left unchanged.
func (b *Blackboard) Set(key string, v any) error {
	p, err := Plain(v)
	if err != nil {
		return fmt.Errorf("blackboard key %q: %w", key, err)
	}
	b.SetPlain(key, p)
	return nil
}

// SetPlain stores v, which the caller guarantees is canonical plain data
// that nobody else holds (a fresh result of Plain or of a Lua conversion),
// without copying it again. nil deletes the key.
func (b *Blackboard) SetPlain(key string, v any) {
	if v == nil {
		delete(b.m, key)
	} else {
		b.m[key] = v
	}
	if b.onSet != nil {
		b.onSet(key, v)
	}
}

// Keys returns the keys that are set, sorted.
func (b *Blackboard) Keys() []string {
	return slices.Sorted(maps.Keys(b.m))
}

// Len returns how many keys are set.
func (b *Blackboard) Len() int { return len(b.m) }
