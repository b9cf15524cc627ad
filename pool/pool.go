// Package pool provides a bounded free list of reusable objects.
//
// A [Pool] keeps at most Limit idle objects. [Pool.Get] reuses an idle object
// or makes a new one; [Pool.Put] clears the object, so that its next user
// finds no ghost data, and keeps it only while fewer than Limit are idle.
// Unlike sync.Pool, a Pool never drops objects behind its user's back, which
// makes reuse observable: [Pool.Made], [Pool.Got] and [Pool.Idle] (or
// [Pool.Stats], all three at once) let tests prove that it happens.
//
// A Pool is not safe for concurrent use: it belongs to the goroutine that
// drives its owner (a runtime, a script's state set).
package pool

// Options configures a [Pool].
type Options[T any] struct {
	// Limit is the most idle objects the pool keeps. The default (zero)
	// value is 64. A negative value turns pooling off: Get always makes a
	// new object and Put drops it.
	Limit int
	// New makes a new object. The default (nil) value allocates a zero T.
	New func() *T
	// Reset clears an object before it goes idle. The default (nil) value
	// sets it to T's zero value.
	Reset func(*T)
	// Drop is called with an object that Put does not keep because the pool
	// is full or off (to close it, for example). The default (nil) value
	// does nothing.
	Drop func(*T)
}

// DefaultLimit is the idle limit used when Options.Limit is zero.
const DefaultLimit = 64

// Pool is a bounded free list of *T. The zero value is not usable; call [New].
type Pool[T any] struct {
	opts Options[T]
	idle []*T
	made int
	got  int
}

// New returns an empty pool configured by opts.
func New[T any](opts Options[T]) *Pool[T] {
	if opts.Limit == 0 {
		opts.Limit = DefaultLimit
	}
	return &Pool[T]{opts: opts}
}

// Get returns an idle object, or a new one when none is idle. O(1).
func (p *Pool[T]) Get() *T {
	p.got++
	if n := len(p.idle); n > 0 {
		x := p.idle[n-1]
		p.idle[n-1] = nil
		p.idle = p.idle[:n-1]
		return x
	}
	p.made++
	if p.opts.New != nil {
		return p.opts.New()
	}
	return new(T)
}

// Put clears x and keeps it for a later Get while fewer than Limit objects
// are idle; otherwise x is dropped. Putting nil does nothing. O(1).
func (p *Pool[T]) Put(x *T) {
	if x == nil {
		return
	}
	if p.opts.Limit < 0 || len(p.idle) >= p.opts.Limit {
		if p.opts.Drop != nil {
			p.opts.Drop(x)
		}
		return
	}
	if p.opts.Reset != nil {
		p.opts.Reset(x)
	} else {
		var zero T
		*x = zero
	}
	p.idle = append(p.idle, x)
}

// Stats is a snapshot of a pool's counters.
type Stats struct {
	// Made is how many objects Get had to make.
	Made int
	// Got is how many times Get was called.
	Got int
	// Idle is how many objects wait for reuse.
	Idle int
}

// Stats returns the pool's counters. Got minus Made is how many Gets
// reused an object.
func (p *Pool[T]) Stats() Stats { return Stats{Made: p.made, Got: p.got, Idle: len(p.idle)} }

// Made reports how many objects Get had to make.
func (p *Pool[T]) Made() int { return p.made }

// Got reports how many times Get was called.
func (p *Pool[T]) Got() int { return p.got }

// Idle reports how many objects wait for reuse.
func (p *Pool[T]) Idle() int { return len(p.idle) }

// Drain drops every idle object (calling Options.Drop on each) and empties
// the pool.
func (p *Pool[T]) Drain() {
	for i, x := range p.idle {
		if p.opts.Drop != nil {
			p.opts.Drop(x)
		}
		p.idle[i] = nil
	}
	p.idle = p.idle[:0]
}
