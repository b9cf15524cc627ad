package pool

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

type payload struct {
	name  string
	items []int
	tags  map[string]bool
}

func TestCountersProveReuse(t *testing.T) {
	p := New(Options[payload]{})
	assert.Zero(t, p.Made())
	assert.Zero(t, p.Got())
	assert.Zero(t, p.Idle())

	a := p.Get()
	b := p.Get()
	require.NotSame(t, a, b)
	assert.Equal(t, 2, p.Made())
	assert.Equal(t, 2, p.Got())
	assert.Zero(t, p.Idle())

	p.Put(a)
	p.Put(b)
	assert.Equal(t, 2, p.Idle())

	c := p.Get()
	d := p.Get()
	assert.ElementsMatch(t, []*payload{a, b}, []*payload{c, d}, "Get must hand back the idle objects")
	assert.Equal(t, 2, p.Made(), "no new object while some are idle")
	assert.Equal(t, 4, p.Got())
	assert.Zero(t, p.Idle())

	p.Get()
	assert.Equal(t, 3, p.Made(), "a new object once none is idle")
	assert.Equal(t, 5, p.Got())
	p.Put(c)
	assert.Equal(t, Stats{Made: 3, Got: 5, Idle: 1}, p.Stats(), "Stats reads the same counters")
}

func TestPutClears(t *testing.T) {
	t.Run("zero value by default", func(t *testing.T) {
		p := New(Options[payload]{})
		x := p.Get()
		x.name = "ghost"
		x.items = append(x.items, 1, 2, 3)
		x.tags = map[string]bool{"boo": true}
		p.Put(x)
		y := p.Get()
		require.Same(t, x, y)
		assert.Equal(t, payload{}, *y, "the next user must find no ghost data")
	})
	t.Run("Reset when given", func(t *testing.T) {
		resets := 0
		p := New(Options[payload]{Reset: func(x *payload) {
			resets++
			x.name = ""
			x.items = x.items[:0] // keep the capacity
			clear(x.tags)
		}})
		x := p.Get()
		x.name = "ghost"
		x.items = append(x.items, 1, 2, 3)
		x.tags = map[string]bool{"boo": true}
		p.Put(x)
		assert.Equal(t, 1, resets)
		y := p.Get()
		require.Same(t, x, y)
		assert.Empty(t, y.name)
		assert.Empty(t, y.items)
		assert.GreaterOrEqual(t, cap(y.items), 3, "Reset replaces the default clearing")
		assert.Empty(t, y.tags)
	})
}

func TestNewIsUsed(t *testing.T) {
	p := New(Options[payload]{New: func() *payload { return &payload{name: "fresh"} }})
	assert.Equal(t, "fresh", p.Get().name)
	assert.Equal(t, 1, p.Made())
}

func TestLimit(t *testing.T) {
	tests := []struct {
		name      string
		limit     int
		puts      int
		wantIdle  int
		wantDrops int
	}{
		{"under the limit", 4, 3, 3, 0},
		{"at the limit", 4, 4, 4, 0},
		{"over the limit", 2, 5, 2, 3},
		{"zero means the default", 0, DefaultLimit + 3, DefaultLimit, 3},
		{"negative turns pooling off", -1, 5, 0, 5},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var dropped []*payload
			p := New(Options[payload]{Limit: tt.limit, Drop: func(x *payload) { dropped = append(dropped, x) }})
			objs := make([]*payload, tt.puts)
			for i := range objs {
				objs[i] = p.Get()
			}
			for _, x := range objs {
				p.Put(x)
			}
			assert.Equal(t, tt.wantIdle, p.Idle())
			assert.Len(t, dropped, tt.wantDrops)
			// The objects kept and the objects dropped are the ones put.
			if tt.wantDrops > 0 {
				assert.Equal(t, objs[tt.puts-tt.wantDrops:], dropped, "the objects past the limit are dropped")
			}
		})
	}
}

func TestNegativeLimitAlwaysMakes(t *testing.T) {
	p := New(Options[payload]{Limit: -1})
	for range 3 {
		p.Put(p.Get())
	}
	assert.Equal(t, 3, p.Made())
	assert.Equal(t, 3, p.Got())
	assert.Zero(t, p.Idle())
}

func TestPutNil(t *testing.T) {
	drops := 0
	p := New(Options[payload]{Limit: -1, Drop: func(*payload) { drops++ }})
	p.Put(nil)
	assert.Zero(t, p.Idle())
	assert.Zero(t, drops)
}

func TestDrain(t *testing.T) {
	var dropped []*payload
	p := New(Options[payload]{Drop: func(x *payload) { dropped = append(dropped, x) }})
	a, b := p.Get(), p.Get()
	p.Put(a)
	p.Put(b)
	p.Drain()
	assert.Zero(t, p.Idle())
	assert.ElementsMatch(t, []*payload{a, b}, dropped)
	c := p.Get()
	assert.NotSame(t, a, c)
	assert.NotSame(t, b, c)
	assert.Equal(t, 3, p.Made(), "a drained pool makes new objects")

	p.Drain() // draining an empty pool is harmless
	assert.Len(t, dropped, 2)
}

func TestDrainWithoutDrop(t *testing.T) {
	p := New(Options[payload]{})
	p.Put(p.Get())
	p.Drain()
	assert.Zero(t, p.Idle())
}

func BenchmarkGetPut(b *testing.B) {
	p := New(Options[payload]{})
	b.ReportAllocs()
	for b.Loop() {
		p.Put(p.Get())
	}
}
