package runtime

import (
	"iter"
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// seqLabels collects the labels of the instances an iterator yields.
func seqLabels(seq iter.Seq[*Instance]) []string {
	return labels(slices.Collect(seq))
}

// TestIterators: the world's iterators yield what they promise, in
// order, stop when the loop breaks, and take their set when iteration
// starts: what the loop adds is not yielded, what it destroys before
// its turn is skipped.
func TestIterators(t *testing.T) {
	rt, _ := newTestRuntime(t, Options{})
	log := &recorder{}
	guard := &testScript{name: "guard", log: log}
	late := &testScript{name: "late", prio: -1, log: log}
	a := spawnActive(t, rt, "a")
	b := spawnActive(t, rt, "b")
	pending := rt.Spawn()
	attach(t, rt, a, guard, "a.guard")
	attach(t, rt, b, late, "b.late")
	attach(t, rt, b, guard, "b.guard")
	attach(t, rt, pending, guard, "p.guard")
	require.NoError(t, rt.Tag(b, "boss"))

	assert.Equal(t, []Handle{a, b, pending}, slices.Collect(rt.AllEntities()), "every entity, pending too, by index")
	assert.Equal(t, []string{"b.late", "a.guard", "b.guard", "p.guard"}, seqLabels(rt.AllInstances()), "schedule order")
	assert.Equal(t, []string{"a.guard", "b.guard", "p.guard"}, seqLabels(rt.InstancesOf(guard)), "attach order")

	tests := []struct {
		name string
		q    Query
		want []string
	}{
		{"every active entity", Query{}, []string{"a:a.guard", "b:b.late", "b:b.guard"}},
		{"by tag", Query{Tag: "boss"}, []string{"b:b.late", "b:b.guard"}},
		{"by script", Query{Script: "guard"}, []string{"a:a.guard", "b:b.guard"}},
		{"by name", Query{Name: "a"}, []string{"a:a.guard"}},
		{"nothing", Query{Tag: "none"}, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got []string
			for h, inst := range rt.QueryInstances(tt.q) {
				name, err := rt.Name(h)
				require.NoError(t, err)
				assert.Equal(t, h, inst.Entity())
				got = append(got, name+":"+label(inst))
			}
			assert.Equal(t, tt.want, got)
		})
	}

	// Breaking stops the iteration.
	n := 0
	for range rt.AllInstances() {
		n++
		break
	}
	assert.Equal(t, 1, n)

	// Changes during the loop: a detach before its turn is skipped, an
	// attach is not yielded.
	var seen []string
	for inst := range rt.InstancesOf(guard) {
		seen = append(seen, label(inst))
		if label(inst) == "a.guard" {
			insts, err := rt.Instances(b)
			require.NoError(t, err)
			rt.Detach(insts[1])
			attach(t, rt, a, guard, "a.guard2")
		}
	}
	assert.Equal(t, []string{"a.guard", "p.guard"}, seen)
	assert.Equal(t, []string{"a.guard", "p.guard", "a.guard2"}, seqLabels(rt.InstancesOf(guard)))
}

// TestInstancesAppend: the live instances of an entity, in attach order,
// after what the buffer held; a stale handle leaves the buffer as it was.
func TestInstancesAppend(t *testing.T) {
	rt, _ := newTestRuntime(t, Options{})
	h := spawnActive(t, rt, "e")
	first := attach(t, rt, h, bareScript{"first"}, nil)
	gone := attach(t, rt, h, bareScript{"gone"}, nil)
	last := attach(t, rt, h, bareScript{"last"}, nil)
	require.True(t, rt.Detach(gone))
	other := attach(t, rt, spawnActive(t, rt, "o"), bareScript{"other"}, nil)

	buf := []*Instance{other}
	buf, err := rt.InstancesAppend(buf, h)
	require.NoError(t, err)
	assert.Equal(t, []*Instance{other, first, last}, buf)

	_, err = rt.Kill(h)
	require.NoError(t, err)
	kept, err := rt.InstancesAppend(buf[:1], h)
	assert.ErrorIs(t, err, ErrStaleHandle)
	assert.Equal(t, []*Instance{other}, kept)
}
