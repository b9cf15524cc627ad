package runtime_test

import (
	"errors"
	"fmt"
	"strings"

	"github.com/luahost/luahost/runtime"
)

// spinner is a Go-native script: it turns its entity around the y axis at
// speed degrees per second. Each instance keeps its angle in its Data.
type spinner struct{ speed float64 }

type spinState struct{ angle float64 }

func (spinner) Name() string  { return "spinner" }
func (spinner) Priority() int { return 0 }

func (s spinner) Create(inst *runtime.Instance) error {
	inst.Data = &spinState{}
	fmt.Println("create", inst)
	return nil
}

func (s spinner) Update(inst *runtime.Instance, dt float64) error {
	st := inst.Data.(*spinState)
	st.angle += s.speed * dt
	return inst.Runtime().Set(inst.Entity(), runtime.Rotation, runtime.Vec3{Y: st.angle})
}

func (s spinner) Destroy(inst *runtime.Instance) error {
	fmt.Printf("destroy %s at %.0f degrees, frame %d\n", inst, inst.Data.(*spinState).angle, inst.Runtime().Frame())
	return nil
}

// This example spawns an entity, attaches a Go-native script to it, and
// runs three frames. Rotations written in a frame are committed at its end.
func Example() {
	rt := runtime.New(runtime.Options{})
	h := rt.Spawn() // Pending: scripts can be attached, nothing updates yet
	if _, err := rt.Attach(h, spinner{speed: 90}, nil); err != nil {
		panic(err)
	}
	if err := rt.Activate(h); err != nil {
		panic(err)
	}
	for range 3 {
		if err := rt.Step(0.5); err != nil {
			panic(err)
		}
		rot, _ := rt.Get(h, runtime.Rotation)
		fmt.Printf("frame %d: rotation %v\n", rt.Frame(), rot)
	}
	if err := rt.Close(); err != nil { // destroys every live instance
		panic(err)
	}
	fmt.Println("alive after close:", rt.Alive(h))
	// Output:
	// create spinner@entity(1:1)
	// frame 1: rotation {0 45 0}
	// frame 2: rotation {0 90 0}
	// frame 3: rotation {0 135 0}
	// destroy spinner@entity(1:1) at 135 degrees, frame 3
	// alive after close: false
}

// A killed entity is settled and reaped at the end of the frame; its handle
// then goes stale, even once its slot is reused.
func ExampleRuntime_Kill() {
	rt := runtime.New(runtime.Options{})
	defer rt.Close()
	h := rt.Spawn()
	_ = rt.Activate(h)
	ok, _ := rt.Kill(h) // outside a frame: settled and reaped at once
	fmt.Println("killed:", ok)
	_, err := rt.State(h)
	fmt.Println(err, errors.Is(err, runtime.ErrStaleHandle))
	fmt.Println("reused slot:", rt.Spawn())
	// Output:
	// killed: true
	// stale entity handle entity(1:1) true
	// reused slot: entity(1:2)
}

// Observers run in order; First puts one in front, a mask filters, and Stop
// ends the dispatch. Each observer sees the previous one's result in Last.
func ExampleEvents_Notify() {
	rt := runtime.New(runtime.Options{})
	defer rt.Close()
	ev := rt.Events()
	ev.Observe("damage", func(e *runtime.Event) any {
		fmt.Println("armor sees", runtime.FormatPlain(e.Last))
		return e.Last.(float64) / 2
	}, runtime.ObserveOptions{})
	ev.Observe("damage", func(e *runtime.Event) any {
		fmt.Println("shield sees", runtime.FormatPlain(e.Last))
		return e.Last.(float64) - 1
	}, runtime.ObserveOptions{First: true})
	ev.Observe("damage", func(e *runtime.Event) any {
		fmt.Println("health sees", runtime.FormatPlain(e.Last))
		if e.Last.(float64) > 3 {
			e.Stop()
		}
		return nil
	}, runtime.ObserveOptions{})
	ev.Observe("damage", func(e *runtime.Event) any {
		fmt.Println("fire resistance")
		return nil
	}, runtime.ObserveOptions{Mask: 0b10})

	ok, _ := ev.Notify("damage", 10, 0b01)
	fmt.Println("completed:", ok)
	ok, _ = ev.Notify("damage", 5, -1)
	fmt.Println("completed:", ok)
	// Output:
	// shield sees 10
	// armor sees 9
	// health sees 4.5
	// completed: false
	// shield sees 5
	// armor sees 4
	// health sees 2
	// fire resistance
	// completed: true
}

// The blackboard stores copies of plain data: changing what Get returned
// does not change what is stored, and values that are not plain data are
// refused.
func ExampleBlackboard() {
	rt := runtime.New(runtime.Options{})
	defer rt.Close()
	bb := rt.Blackboard()
	_ = bb.Set("difficulty", 2)
	_ = bb.Set("spawn", map[string]any{"x": 1, "y": 0, "tags": []any{"north", "safe"}})

	v, _ := bb.Get("spawn")
	t := v.(*runtime.Table)
	t.Fields = nil // only this copy
	again, _ := bb.Get("spawn")
	fmt.Println(runtime.FormatPlain(again))

	err := bb.Set("callback", func() {})
	fmt.Println(err)
	fmt.Println(errors.Is(err, runtime.ErrNotPlain))
	fmt.Println(bb.Keys())
	// Output:
	// {tags={"north", "safe"}, x=1, y=0}
	// blackboard key "callback": not plain data: cannot store a value of type func()
	// true
	// [difficulty spawn]
}

// This example tags entities and finds them with queries: by tag, and
// the nearest within a radius of a point.
func ExampleRuntime_Query() {
	rt := runtime.New(runtime.Options{})
	defer rt.Close()
	for i, x := range []float64{9, 2, 30, -3} {
		h := rt.SpawnAt(runtime.Transform{Position: runtime.Vec3{X: x}})
		_ = rt.SetName(h, fmt.Sprintf("orc%d", i+1))
		_ = rt.Tag(h, "enemy")
		_ = rt.Activate(h)
	}
	var names []string
	for h := range rt.Query(runtime.Query{Tag: "enemy"}) {
		name, _ := rt.Name(h)
		names = append(names, name)
	}
	fmt.Println(strings.Join(names, " "))
	tower := runtime.Vec3{}
	for h := range rt.Query(runtime.Query{Tag: "enemy", Near: &tower, Radius: 10, Limit: 2}) {
		name, _ := rt.Name(h)
		p, _ := rt.Get(h, runtime.Position)
		fmt.Println(name, p.X)
	}
	// Output:
	// orc1 orc2 orc3 orc4
	// orc2 2
	// orc4 -3
}
