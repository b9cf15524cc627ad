package runtime

import (
	"fmt"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestRemovingManyInstancesIsLinear checks that taking instances off one
// entity costs in proportion to their number: 100,000 trivial instances on
// one entity are destroyed, by a kill at a frame's flush, by a kill outside
// a frame, or by detaching each, well within a second's order (a
// quadratic removal takes tens of seconds), in schedule order.
func TestRemovingManyInstancesIsLinear(t *testing.T) {
	const n = 100_000
	tests := []struct {
		name string
		// left is the number of instances left after the removal.
		left   int
		remove func(t *testing.T, rt *Runtime, h Handle, insts []*Instance)
	}{
		{"kill at the flush", 1, func(t *testing.T, rt *Runtime, h Handle, _ []*Instance) {
			killer := spawnActive(t, rt, "")
			attach(t, rt, killer, &testScript{name: "killer", prio: -1, log: &recorder{}, update: func(*Instance, float64) error {
				_, err := rt.Kill(h)
				return err
			}}, nil)
			step(t, rt, 1.0/60)
		}},
		{"kill outside a frame", 0, func(t *testing.T, rt *Runtime, h Handle, _ []*Instance) {
			_, err := rt.Kill(h)
			require.NoError(t, err)
		}},
		{"detach each", 0, func(t *testing.T, rt *Runtime, _ Handle, insts []*Instance) {
			for _, inst := range insts {
				require.True(t, rt.Detach(inst))
			}
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rt, _ := newTestRuntime(t, Options{})
			h := spawnActive(t, rt, "")
			var order []int
			destroy := func(inst *Instance) error {
				order = append(order, inst.Data.(int))
				return nil
			}
			// Priorities alternate so that schedule order differs from
			// attach order.
			scripts := []*testScript{
				{name: "even", log: &recorder{}, destroy: destroy},
				{name: "odd", prio: 1, log: &recorder{}, destroy: destroy},
			}
			var insts []*Instance
			for i := range n {
				insts = append(insts, attach(t, rt, h, scripts[i%2], i))
			}
			start := time.Now()
			tt.remove(t, rt, h, insts)
			assert.Less(t, time.Since(start), 3*time.Second, "removal is linear in the instances")
			require.Len(t, order, n)
			if tt.name != "detach each" { // a detach destroys in detach order
				for i := 1; i < n; i++ {
					a, b := order[i-1], order[i]
					require.True(t, a%2 < b%2 || (a%2 == b%2 && a < b), "schedule order at %d: %d then %d", i, a, b)
				}
			}
			assert.Equal(t, tt.left, rt.Stats().Instances)
		})
	}
}

// TestMaxEntityInstances checks that an entity takes at most
// Options.MaxEntityInstances live instances: the next attach fails with
// ErrTooManyInstances, and a removed instance makes room again.
func TestMaxEntityInstances(t *testing.T) {
	tests := []struct {
		name string
		max  int
		want int
	}{
		{"default", 0, DefaultMaxEntityInstances},
		{"three", 3, 3},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			rt, _ := newTestRuntime(t, Options{MaxEntityInstances: tt.max})
			h := spawnActive(t, rt, "")
			s := bareScript{name: "s"}
			var first *Instance
			for i := range tt.want {
				inst := attach(t, rt, h, s, nil)
				if i == 0 {
					first = inst
				}
			}
			_, err := rt.Attach(h, s, nil)
			require.ErrorIs(t, err, ErrTooManyInstances)
			assert.Contains(t, err.Error(), fmt.Sprintf("it holds %d, the most", tt.want))
			require.True(t, rt.Detach(first))
			attach(t, rt, h, s, nil)
		})
	}
}
