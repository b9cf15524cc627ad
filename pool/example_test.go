package pool_test

import (
	"bytes"
	"fmt"

	"github.com/luahost/luahost/pool"
)

// Example keeps a few buffers for reuse: Put empties a buffer and keeps
// it, the next Get hands it back instead of making a new one, and the
// counters show the reuse.
func Example() {
	buffers := pool.New(pool.Options[bytes.Buffer]{
		Limit: 2,
		Reset: func(b *bytes.Buffer) { b.Reset() },
	})
	first := buffers.Get()
	first.WriteString("frame 1")
	fmt.Println(first.String())
	buffers.Put(first)

	second := buffers.Get()
	fmt.Printf("reused: %v, empty: %v\n", second == first, second.Len() == 0)
	fmt.Printf("%+v\n", buffers.Stats())
	// Output:
	// frame 1
	// reused: true, empty: true
	// {Made:1 Got:2 Idle:0}
}

// ExampleOptions shows a pool of closable objects: those Put cannot keep
// (past Limit) and those Drain empties go to Drop, to be closed.
func ExampleOptions() {
	type conn struct{ id int }
	next := 0
	conns := pool.New(pool.Options[conn]{
		Limit: 1,
		New:   func() *conn { next++; return &conn{id: next} },
		Reset: func(*conn) {}, // keep the id: a conn stays the same conn
		Drop:  func(c *conn) { fmt.Println("close", c.id) },
	})
	a, b := conns.Get(), conns.Get()
	conns.Put(a)
	conns.Put(b) // the pool keeps one: b is dropped
	fmt.Println("idle", conns.Idle())
	conns.Drain()
	// Output:
	// close 2
	// idle 1
	// close 1
}
